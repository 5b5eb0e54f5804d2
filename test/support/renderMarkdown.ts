/**
 * Markdown rendered by marked 14.0.0, the renderer VS Code 1.100 uses for hovers and test messages, so
 * a test sees what a person would. Not a double: the real renderer, pinned to VS Code's version.
 */
import { marked } from 'marked';

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** The HTML marked makes of `markdown` (GFM on, as in VS Code). */
export function markdownHtml(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true });
}

/** The text a person reads in a piece of HTML: tags dropped, entities decoded. */
export function visibleText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

/** The cells of each body row of the first table in `html`, as visible text. */
export function tableRows(html: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => visibleText(cell[1] ?? '')),
  );
}
