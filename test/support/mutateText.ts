// Random small edits of a text for the tests that compare two ways of reading it (the piece-wise
// parse with the whole one, a config's visible part with its whole analysis): one to three edits,
// each an insertion of one of `snippets`, a deletion of one to five characters, or a line removed.

export interface EditShares {
  /** The share of edits that insert a snippet. */
  readonly insert: number;
  /** The share that insert or delete characters; the rest remove a line. */
  readonly insertOrDelete: number;
}

export function mutateText(
  text: string,
  random: () => number,
  snippets: readonly string[],
  shares: EditShares = { insert: 0.5, insertOrDelete: 0.8 },
): string {
  let out = text;
  for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
    const at = Math.floor(random() * out.length);
    const roll = random();
    if (roll < shares.insert)
      out = out.slice(0, at) + (snippets[Math.floor(random() * snippets.length)] ?? '') + out.slice(at);
    else if (roll < shares.insertOrDelete) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 5));
    else {
      const lines = out.split('\n');
      lines.splice(Math.floor(random() * lines.length), 1);
      out = lines.join('\n');
    }
  }
  return out;
}
