import { agentSteps } from './builtin/agentSteps';
import { citationSupport } from './builtin/citationSupport';
import { contains } from './builtin/contains';
import { editSimilarity } from './builtin/editSimilarity';
import { effectiveBilledTokens } from './builtin/effectiveBilledTokens';
import { endToEndLatency } from './builtin/endToEndLatency';
import { exactMatch } from './builtin/exactMatch';
import { exactMatchConsistency } from './builtin/exactMatchConsistency';
import { executionOrder } from './builtin/executionOrder';
import { jsonSchema } from './builtin/jsonSchema';
import { mcpComplianceCheck } from './builtin/mcpComplianceCheck';
import { mcpTokenCost } from './builtin/mcpTokenCost';
import { mcpToolMetrics } from './builtin/mcpToolMetrics';
import { nonFinalOutputTokens } from './builtin/nonFinalOutputTokens';
import { notContains } from './builtin/notContains';
import { numericTolerance } from './builtin/numericTolerance';
import { pythonScorer } from './builtin/pythonScorer';
import { regex } from './builtin/regex';
import { requiredArtifacts } from './builtin/requiredArtifacts';
import { requiredFields } from './builtin/requiredFields';
import { retrievalRelevance } from './builtin/retrievalRelevance';
import { secretScan } from './builtin/secretScan';
import { subprocess } from './builtin/subprocess';
import { skillsTrajectory } from './builtin/skillsTrajectory';
import { tokenConsumption } from './builtin/tokenConsumption';
import { tokensProcessed } from './builtin/tokensProcessed';
import { toolCallLatency } from './builtin/toolCallLatency';
import { toolCallMatch } from './builtin/toolCallMatch';
import { trajectory } from './builtin/trajectory';
import { trajectoryMatcher } from './builtin/trajectoryMatcher';
import { turnCount } from './builtin/turnCount';
import { evalhubBenchmark } from './builtin/evalhubBenchmark';
import { executableSql } from './builtin/sql/executableSql';
import { hybridXaJudge } from './builtin/sql/hybridXaJudge';
import { recallMatch } from './builtin/sql/recallMatch';
import { regexpMatcher } from './builtin/sql/regexpMatcher';
import { returnedSql } from './builtin/sql/returnedSql';
import { setMatch } from './builtin/sql/setMatch';
import { analyticsScorer } from './builtin/llm/analyticsScorer';
import { behavioralMetrics } from './builtin/llm/behavioralMetrics';
import { binaryRubricScorer } from './builtin/llm/binaryRubricScorer';
import { goalCompletion } from './builtin/llm/goalCompletion';
import { llmConsistency } from './builtin/llm/llmConsistency';
import { llmrater } from './builtin/llm/llmrater';
import { parameterAnalysis } from './builtin/llm/parameterAnalysis';
import { skillsBestPractices } from './builtin/llm/skillsBestPractices';
import { isBooleanVerdict, negatedKey, negationOf } from './negation';
import type { ScorerDefinition } from './scorer';

/** Every built-in scorer. A new scorer is one file in `builtin/`, one schema, one line here. */
export const BUILTIN_SCORERS: readonly ScorerDefinition[] = [
  exactMatch,
  contains,
  notContains,
  regex,
  jsonSchema,
  numericTolerance,
  requiredFields,
  requiredArtifacts,
  editSimilarity,
  secretScan,
  // EvalBook: traces
  toolCallMatch,
  trajectory,
  retrievalRelevance,
  citationSupport,
  // EvalBench: agents, skills, trials
  trajectoryMatcher,
  skillsTrajectory,
  turnCount,
  agentSteps,
  endToEndLatency,
  toolCallLatency,
  tokenConsumption,
  tokensProcessed,
  effectiveBilledTokens,
  nonFinalOutputTokens,
  exactMatchConsistency,
  // EvalBench: MCP endpoints (recorded tool listings and compliance rows)
  mcpToolMetrics,
  mcpTokenCost,
  mcpComplianceCheck,
  // EvalBench: NL2SQL (its `exact_match` replaces EvalBook's in EvalBench run configs)
  recallMatch,
  setMatch,
  executableSql,
  returnedSql,
  regexpMatcher,
  hybridXaJudge,
  // judgeval
  executionOrder,
  // EvalHub: benchmark results of harnesses
  evalhubBenchmark,
  // EvalCore: any-language scorers
  subprocess,
  pythonScorer,
  // LLM judges (EvalBench's keys): each calls the model its model_config names
  llmrater,
  analyticsScorer,
  goalCompletion,
  behavioralMetrics,
  parameterAnalysis,
  binaryRubricScorer,
  llmConsistency,
  skillsBestPractices,
];

export class ScorerRegistry {
  private readonly byKey = new Map<string, ScorerDefinition>();
  /** Negations made on first use, one per key, so a key always selects the same definition. */
  private readonly negations = new Map<string, ScorerDefinition>();

  constructor(definitions: readonly ScorerDefinition[] = BUILTIN_SCORERS) {
    for (const d of definitions) this.byKey.set(d.key, d);
  }

  /** The scorer a key selects: a registered one, else the negation a `not-` / `not_` key names (negation.ts). */
  get(key: string): ScorerDefinition | undefined {
    const found = this.byKey.get(key) ?? this.negations.get(key);
    if (found !== undefined) return found;
    const negation = negationOf(key, (base) => this.byKey.get(base));
    if (negation !== undefined) this.negations.set(key, negation);
    return negation;
  }

  keys(): string[] {
    return [...this.byKey.keys()].sort();
  }

  /**
   * The `not-<key>` of every boolean-verdict scorer (negation.ts), sorted: what an editor offers and
   * suggests beside keys(). A scorer that is itself a negation (`not_contains`) gets none.
   */
  negationKeys(): string[] {
    return this.all()
      .filter((d) => isBooleanVerdict(d) && negatedKey(d.key) === undefined && !this.byKey.has(`not-${d.key}`))
      .map((d) => `not-${d.key}`);
  }

  /** The scorer a key negates, when the key selects a negation rather than a scorer of its own (`not_contains` is one). */
  negatedScorer(key: string): ScorerDefinition | undefined {
    const base = this.byKey.has(key) ? undefined : negatedKey(key);
    return base === undefined || this.get(key) === undefined ? undefined : this.byKey.get(base);
  }

  all(): ScorerDefinition[] {
    return this.keys()
      .map((k) => this.byKey.get(k))
      .filter((d): d is ScorerDefinition => d !== undefined);
  }
}
