import type { Json } from '../case';

/**
 * The engine's one trace model: what an agent did for one case, in order, whatever format it was
 * recorded in (`traceOf` normalizes every supported format into this). Tool names are canonical:
 * `<server>__<tool>` for MCP tools, the bare name for native (harness) tools.
 */
export interface ToolCallStep {
  readonly kind: 'tool_call';
  /** Canonical name (`<server>__<tool>` for MCP tools). */
  readonly name: string;
  /** The name as recorded, when canonicalization changed it. */
  readonly recordedName?: string;
  /** The call's arguments; absent when the recording did not keep them (not the same as `{}`). */
  readonly arguments?: Json;
  readonly result?: Json;
  /** The error the call ended with, if it failed. */
  readonly error?: string;
  /** Milliseconds since the epoch (or since the trace began), when recorded. */
  readonly startMs?: number;
  readonly endMs?: number;
  readonly durationMs?: number;
  /** 0-based conversation turn the call happened in, when known. */
  readonly turn?: number;
  readonly id?: string;
}

export interface MessageStep {
  readonly kind: 'message';
  readonly role: string;
  readonly content?: Json;
  readonly turn?: number;
}

export interface HandoffStep {
  readonly kind: 'handoff';
  readonly from?: string;
  readonly to: string;
  readonly turn?: number;
}

export interface RetrievalStep {
  readonly kind: 'retrieval';
  readonly documentIds: readonly string[];
  readonly query?: string;
  readonly turn?: number;
}

export interface SkillStep {
  readonly kind: 'skill';
  readonly name: string;
  readonly turn?: number;
}

export type TraceStep = ToolCallStep | MessageStep | HandoffStep | RetrievalStep | SkillStep;

/**
 * Token counts of one turn, summed over the models that served it, under EvalBench's names
 * (Gemini CLI stats): `candidates` are output tokens; `prompt` includes cached context.
 */
export interface TokenFigures {
  readonly input?: number;
  readonly prompt?: number;
  readonly candidates?: number;
  readonly total?: number;
  readonly cached?: number;
  readonly cacheCreation?: number;
  readonly thoughts?: number;
  readonly tool?: number;
}

/** Figures of one user↔agent turn. */
export interface TurnFigures {
  readonly tokens?: TokenFigures;
  /** Model API latency of the turn (EvalBench: Σ models.*.api.totalLatencyMs). */
  readonly modelLatencyMs?: number;
  /** Tool execution time of the turn (EvalBench: stats.tools.totalDurationMs). */
  readonly toolDurationMs?: number;
  /** Tool calls the turn made (EvalBench: stats.tools.totalCalls, else its tool_calls). */
  readonly toolCalls?: number;
}

/** The recorded format a trace was read from (`traceOf`). */
export type TraceFormat = 'native' | 'chat' | 'tool_names' | 'conversation_history';

export interface Trace {
  readonly steps: readonly TraceStep[];
  /**
   * False when the recording has no steps at all (only figures: turns, latency, citations), which
   * differs from an empty list of steps. Absent means the steps were recorded.
   */
  readonly hasSteps?: boolean;
  /** Per-turn figures; empty when the recording has none. */
  readonly turns: readonly TurnFigures[];
  /** Whether the recording had turns at all (an empty conversation differs from no conversation). */
  readonly hasTurns: boolean;
  /** Wall-clock latency of the whole case, when recorded. */
  readonly latencyMs?: number;
  /** Document ids the answer cites, when recorded (citation_support). */
  readonly citations?: readonly string[];
  /**
   * EvalBench conversation history only: how many turns were skipped because their entry was not an
   * object or its agent part was not JSON. Each still has an (empty) entry in `turns`, so
   * `turns.length` is EvalBench's turn count, and adds nothing to any figure (EvalBench counts it as 0).
   */
  readonly skippedTurns?: number;
  /** The recorded format the trace was read from, for reasons ("a list of tool names keeps no arguments"). */
  readonly format?: TraceFormat;
  /**
   * EvalBench conversation history only: the canonical tool names EvalBench's trajectory_matcher
   * compares (its `accumulated_tools`: one name per tool per turn, from `stats.tools.byName`), which
   * may differ from the tool-call steps in order and repeats. Absent for other formats, whose
   * trajectory is the tool-call steps.
   */
  readonly trajectoryNames?: readonly string[];
}

export function toolCalls(trace: Trace): ToolCallStep[] {
  return trace.steps.filter((s): s is ToolCallStep => s.kind === 'tool_call');
}
