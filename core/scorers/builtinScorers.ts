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
import type { ScorerDefinition } from './scorer';

/**
 * Every built-in scorer, loaded: what lists them all (docs, the build's precompiled validators, tests).
 * A process that reads configs gets them one at a time through builtinIndex.ts instead.
 */
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
