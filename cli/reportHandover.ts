/**
 * `evallens run` forked by the VS Code extension hands its finished report over the IPC channel
 * (protocol/reportHandover.ts), so the editor needs no second process to read it. Only when asked
 * (REPORT_HANDOVER_ENV=1) and the channel is open, and only a report up to MAX_HANDOVER_CHARS: a larger
 * one is not read back into memory here (report.json is written streaming), and the editor reads its file.
 */
import { readFile, stat } from 'node:fs/promises';
import { MAX_HANDOVER_CHARS, REPORT_HANDOVER_ENV, type ReportHandover } from '../protocol/reportHandover';

export async function handOverReport(file: string): Promise<void> {
  const send = process.send?.bind(process);
  if (process.env[REPORT_HANDOVER_ENV] !== '1' || send === undefined || !process.connected) return;
  try {
    // Bytes bound the characters from above.
    if ((await stat(file)).size > MAX_HANDOVER_CHARS) return;
    const message: ReportHandover = { type: 'evallens/report', file, json: await readFile(file, 'utf8') };
    // Waits until the message is written, so the process does not exit before the editor has it.
    await new Promise<void>((resolve) => send(message, undefined, {}, () => resolve()));
  } catch {
    // No handover (the file went, the channel closed): the editor reads the file instead.
  }
}
