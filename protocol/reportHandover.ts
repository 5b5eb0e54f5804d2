/**
 * The finished run's report handed from `evallens run` to the process that forked it (the VS Code
 * extension), over the IPC channel Node's `fork` opens: the editor's results view shows it without a
 * second CLI process (`evallens report <file> --reporter json`). Asked for by the environment variable
 * below; only a report up to MAX_HANDOVER_CHARS is handed over, a larger one stays in its file (which
 * the editor reads as before). The text is report.json as the run wrote it.
 */
import { isObject } from '../shared/isObject';

export const REPORT_HANDOVER_ENV = 'EVALLENS_REPORT_HANDOVER';
export const MAX_HANDOVER_CHARS = 16 * 1024 * 1024;

export interface ReportHandover {
  readonly type: 'evallens/report';
  /** The report.json the text was read from. */
  readonly file: string;
  readonly json: string;
}

/** The message when it is a report handover in bounds; undefined for anything else. */
export function asReportHandover(message: unknown): ReportHandover | undefined {
  if (!isObject(message) || message['type'] !== 'evallens/report') return undefined;
  const { file, json } = message;
  return typeof file === 'string' && typeof json === 'string' && json.length <= MAX_HANDOVER_CHARS
    ? { type: 'evallens/report', file, json }
    : undefined;
}
