import type { Json } from '../case';
import type { SourceRange } from '../text/position';

/** How a target's answer is read (`target.format`). */
export type AnswerFormat = 'auto' | 'json' | 'text';

/** What every target has, whatever it calls. */
interface TargetCommon {
  readonly format: AnswerFormat;
  /** `output_path`, as written (checked at load). */
  readonly outputPath?: string;
  /** `trace_path`, as written (checked at load). */
  readonly tracePath?: string;
  readonly timeoutMs: number;
  /** Call it for every case, not only for those without a recorded output. */
  readonly replaceRecorded: boolean;
  /** The `target` key, for problems about the target as a whole. */
  readonly range: SourceRange;
}

/** `target.cmd`: a shell command run once per case from the config's folder. */
export interface CmdTargetConfig extends TargetCommon {
  readonly kind: 'cmd';
  readonly cmd: string;
  /** The config's folder: the command runs there. */
  readonly cwd: string;
}

/** `target.http`: a request per case. Templates are kept as written; they were checked at load. */
export interface HttpTargetConfig extends TargetCommon {
  readonly kind: 'http';
  readonly url: string;
  readonly method: HttpMethod;
  /** Header templates: `{{env.NAME}}` is read when the request is made, so no secret is held here. */
  readonly headers: { readonly [name: string]: string };
  /** The body template; absent means the case payload as the command target gets it. */
  readonly body?: Json;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A run config's `target:`: where the outputs of cases without recorded ones come from. */
export type TargetConfig = CmdTargetConfig | HttpTargetConfig;
