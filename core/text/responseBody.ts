/**
 * Reads an HTTP response body as UTF-8 text, at most `maxBytes` of it. A larger body is not read on:
 * the stream is cancelled (which ends the request) and the answer says how far it got, so a server
 * that streams an endless body costs at most the cap in memory and never hangs the reader.
 */
export type CappedBody =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly readBytes: number };

export async function readBodyCapped(response: Response, maxBytes: number): Promise<CappedBody> {
  if (response.body === null) return { ok: true, text: '' };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, readBytes: bytes };
    }
    chunks.push(value);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
