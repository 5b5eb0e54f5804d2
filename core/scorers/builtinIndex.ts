/* eslint-disable @typescript-eslint/no-require-imports -- each definition loads when a config names it */
import type { ScorerDefinition } from './scorer';

/**
 * A built-in scorer by key, and how to load its definition. The definitions (their code, their options
 * schema, what they import: SQL, the regex checker, processes, judges) are loaded when a config names
 * them, not at start-up: the bundles keep a required module's set-up in a function that runs on the first
 * `require` (issue 18 item 2). builtinScorers.ts is this index loaded.
 */
export interface ScorerEntry {
  readonly key: string;
  load(): ScorerDefinition;
}

/** Every built-in scorer's key and loader. A new scorer is one file in `builtin/`, one schema and one line here. */
export const BUILTIN_SCORER_INDEX: readonly ScorerEntry[] = [
  {
    key: 'exact_match',
    load: () => (require('./builtin/exactMatch') as typeof import('./builtin/exactMatch')).exactMatch,
  },
  { key: 'contains', load: () => (require('./builtin/contains') as typeof import('./builtin/contains')).contains },
  {
    key: 'not_contains',
    load: () => (require('./builtin/notContains') as typeof import('./builtin/notContains')).notContains,
  },
  { key: 'regex', load: () => (require('./builtin/regex') as typeof import('./builtin/regex')).regex },
  {
    key: 'json_schema',
    load: () => (require('./builtin/jsonSchema') as typeof import('./builtin/jsonSchema')).jsonSchema,
  },
  {
    key: 'numeric_tolerance',
    load: () => (require('./builtin/numericTolerance') as typeof import('./builtin/numericTolerance')).numericTolerance,
  },
  {
    key: 'required_fields',
    load: () => (require('./builtin/requiredFields') as typeof import('./builtin/requiredFields')).requiredFields,
  },
  {
    key: 'required_artifacts',
    load: () =>
      (require('./builtin/requiredArtifacts') as typeof import('./builtin/requiredArtifacts')).requiredArtifacts,
  },
  {
    key: 'edit_similarity',
    load: () => (require('./builtin/editSimilarity') as typeof import('./builtin/editSimilarity')).editSimilarity,
  },
  {
    key: 'secret_scan',
    load: () => (require('./builtin/secretScan') as typeof import('./builtin/secretScan')).secretScan,
  },
  // EvalBook: traces
  {
    key: 'tool_call_match',
    load: () => (require('./builtin/toolCallMatch') as typeof import('./builtin/toolCallMatch')).toolCallMatch,
  },
  {
    key: 'trajectory',
    load: () => (require('./builtin/trajectory') as typeof import('./builtin/trajectory')).trajectory,
  },
  {
    key: 'retrieval_relevance',
    load: () =>
      (require('./builtin/retrievalRelevance') as typeof import('./builtin/retrievalRelevance')).retrievalRelevance,
  },
  {
    key: 'citation_support',
    load: () => (require('./builtin/citationSupport') as typeof import('./builtin/citationSupport')).citationSupport,
  },
  // EvalBench: agents, skills, trials
  {
    key: 'trajectory_matcher',
    load: () =>
      (require('./builtin/trajectoryMatcher') as typeof import('./builtin/trajectoryMatcher')).trajectoryMatcher,
  },
  {
    key: 'skills_trajectory',
    load: () => (require('./builtin/skillsTrajectory') as typeof import('./builtin/skillsTrajectory')).skillsTrajectory,
  },
  { key: 'turn_count', load: () => (require('./builtin/turnCount') as typeof import('./builtin/turnCount')).turnCount },
  {
    key: 'agent_steps',
    load: () => (require('./builtin/agentSteps') as typeof import('./builtin/agentSteps')).agentSteps,
  },
  {
    key: 'end_to_end_latency',
    load: () => (require('./builtin/endToEndLatency') as typeof import('./builtin/endToEndLatency')).endToEndLatency,
  },
  {
    key: 'tool_call_latency',
    load: () => (require('./builtin/toolCallLatency') as typeof import('./builtin/toolCallLatency')).toolCallLatency,
  },
  {
    key: 'token_consumption',
    load: () => (require('./builtin/tokenConsumption') as typeof import('./builtin/tokenConsumption')).tokenConsumption,
  },
  {
    key: 'tokens_processed',
    load: () => (require('./builtin/tokensProcessed') as typeof import('./builtin/tokensProcessed')).tokensProcessed,
  },
  {
    key: 'effective_billed_tokens',
    load: () =>
      (require('./builtin/effectiveBilledTokens') as typeof import('./builtin/effectiveBilledTokens'))
        .effectiveBilledTokens,
  },
  {
    key: 'non_final_output_tokens',
    load: () =>
      (require('./builtin/nonFinalOutputTokens') as typeof import('./builtin/nonFinalOutputTokens'))
        .nonFinalOutputTokens,
  },
  {
    key: 'exact_match_consistency',
    load: () =>
      (require('./builtin/exactMatchConsistency') as typeof import('./builtin/exactMatchConsistency'))
        .exactMatchConsistency,
  },
  // EvalBench: MCP endpoints (recorded tool listings and compliance rows)
  {
    key: 'mcp_tool_metrics',
    load: () => (require('./builtin/mcpToolMetrics') as typeof import('./builtin/mcpToolMetrics')).mcpToolMetrics,
  },
  {
    key: 'mcp_token_cost',
    load: () => (require('./builtin/mcpTokenCost') as typeof import('./builtin/mcpTokenCost')).mcpTokenCost,
  },
  {
    key: 'mcp_compliance_check',
    load: () =>
      (require('./builtin/mcpComplianceCheck') as typeof import('./builtin/mcpComplianceCheck')).mcpComplianceCheck,
  },
  // EvalBench: NL2SQL (its `exact_match` replaces EvalBook's in EvalBench run configs)
  {
    key: 'recall_match',
    load: () => (require('./builtin/sql/recallMatch') as typeof import('./builtin/sql/recallMatch')).recallMatch,
  },
  {
    key: 'set_match',
    load: () => (require('./builtin/sql/setMatch') as typeof import('./builtin/sql/setMatch')).setMatch,
  },
  {
    key: 'executable_sql',
    load: () => (require('./builtin/sql/executableSql') as typeof import('./builtin/sql/executableSql')).executableSql,
  },
  {
    key: 'returned_sql',
    load: () => (require('./builtin/sql/returnedSql') as typeof import('./builtin/sql/returnedSql')).returnedSql,
  },
  {
    key: 'regexp_matcher',
    load: () => (require('./builtin/sql/regexpMatcher') as typeof import('./builtin/sql/regexpMatcher')).regexpMatcher,
  },
  {
    key: 'hybrid_xa_judge',
    load: () => (require('./builtin/sql/hybridXaJudge') as typeof import('./builtin/sql/hybridXaJudge')).hybridXaJudge,
  },
  // judgeval
  {
    key: 'execution_order',
    load: () => (require('./builtin/executionOrder') as typeof import('./builtin/executionOrder')).executionOrder,
  },
  // EvalHub: benchmark results of harnesses
  {
    key: 'evalhub_benchmark',
    load: () => (require('./builtin/evalhubBenchmark') as typeof import('./builtin/evalhubBenchmark')).evalhubBenchmark,
  },
  // EvalCore: any-language scorers
  {
    key: 'subprocess',
    load: () => (require('./builtin/subprocess') as typeof import('./builtin/subprocess')).subprocess,
  },
  {
    key: 'python_scorer',
    load: () => (require('./builtin/pythonScorer') as typeof import('./builtin/pythonScorer')).pythonScorer,
  },
  // LLM judges (EvalBench's keys): each calls the model its model_config names
  {
    key: 'llmrater',
    load: () => (require('./builtin/llm/llmrater') as typeof import('./builtin/llm/llmrater')).llmrater,
  },
  {
    key: 'analytics_scorer',
    load: () =>
      (require('./builtin/llm/analyticsScorer') as typeof import('./builtin/llm/analyticsScorer')).analyticsScorer,
  },
  {
    key: 'goal_completion',
    load: () =>
      (require('./builtin/llm/goalCompletion') as typeof import('./builtin/llm/goalCompletion')).goalCompletion,
  },
  {
    key: 'behavioral_metrics',
    load: () =>
      (require('./builtin/llm/behavioralMetrics') as typeof import('./builtin/llm/behavioralMetrics'))
        .behavioralMetrics,
  },
  {
    key: 'parameter_analysis',
    load: () =>
      (require('./builtin/llm/parameterAnalysis') as typeof import('./builtin/llm/parameterAnalysis'))
        .parameterAnalysis,
  },
  {
    key: 'binary_rubric_scorer',
    load: () =>
      (require('./builtin/llm/binaryRubricScorer') as typeof import('./builtin/llm/binaryRubricScorer'))
        .binaryRubricScorer,
  },
  {
    key: 'llm_consistency',
    load: () =>
      (require('./builtin/llm/llmConsistency') as typeof import('./builtin/llm/llmConsistency')).llmConsistency,
  },
  {
    key: 'skills_best_practices',
    load: () =>
      (require('./builtin/llm/skillsBestPractices') as typeof import('./builtin/llm/skillsBestPractices'))
        .skillsBestPractices,
  },
];
