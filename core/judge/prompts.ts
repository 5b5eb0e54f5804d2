import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BoundedCache } from '../boundedCache';

/**
 * The judges' prompts are Markdown files in `prompts/` at the repository root, so a reader can review
 * exactly what a judge is told. They are read at run time, beside the bundle (`dist/../prompts`, which
 * the .vsix ships) or beside the sources (`core/judge/../../prompts`, under tsx). Placeholders are
 * `{{name}}`; every placeholder of a prompt must be given, and a value is inserted as it is (never
 * re-scanned for placeholders). A host keeps the templates it read in its engine context (`cache`).
 */
export function promptTemplate(name: string, cache?: BoundedCache<string, string>): string {
  const read = () => {
    const file = [join(__dirname, '..', 'prompts'), join(__dirname, '..', '..', 'prompts')]
      .map((dir) => join(dir, `${name}.md`))
      .find((f) => existsSync(f));
    if (file === undefined) throw new Error(`the judge prompt prompts/${name}.md is missing from this installation`);
    return readFileSync(file, 'utf8');
  };
  return cache === undefined ? read() : cache.getOrMake(name, read);
}

/** The prompt with its `{{placeholders}}` filled in; a placeholder with no value is a bug, said as one. */
export function renderPrompt(
  name: string,
  values: Readonly<Record<string, string>>,
  cache?: BoundedCache<string, string>,
): string {
  return promptTemplate(name, cache).replace(/\{\{([a-z_]+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined)
      throw new Error(`the judge prompt prompts/${name}.md has {{${key}}}, which the scorer does not fill`);
    return value;
  });
}
