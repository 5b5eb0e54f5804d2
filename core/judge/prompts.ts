import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The judges' prompts are Markdown files in `prompts/` at the repository root, so a reader can review
 * exactly what a judge is told. They are read at run time, beside the bundle (`dist/../prompts`, which
 * the .vsix ships) or beside the sources (`core/judge/../../prompts`, under tsx). Placeholders are
 * `{{name}}`; every placeholder of a prompt must be given, and a value is inserted as it is (never
 * re-scanned for placeholders).
 */
const cache = new Map<string, string>();

export function promptTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const file = [join(__dirname, '..', 'prompts'), join(__dirname, '..', '..', 'prompts')].map((dir) => join(dir, `${name}.md`)).find((f) => existsSync(f));
    if (file === undefined) throw new Error(`the judge prompt prompts/${name}.md is missing from this installation`);
    text = readFileSync(file, 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** The prompt with its `{{placeholders}}` filled in; a placeholder with no value is a bug, said as one. */
export function renderPrompt(name: string, values: Readonly<Record<string, string>>): string {
  return promptTemplate(name).replace(/\{\{([a-z_]+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`the judge prompt prompts/${name}.md has {{${key}}}, which the scorer does not fill`);
    return value;
  });
}
