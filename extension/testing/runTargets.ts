/**
 * Which configs and cases a run request covers: the items picked in the Testing view (or none: every
 * config), minus what it excludes. A config picked whole runs all its cases (one CLI run with no case
 * filter); a config with some cases excluded, or cases picked one by one, runs just those. vscode-free.
 */
import type * as vscode from 'vscode';
import { parseCaseTestId } from './testIds';

/** Per config file: the case ids to run, or undefined for all of them. */
export type Targets = Map<string, Set<string> | undefined>;

/** What targeting needs of the tree: its items, and the means to list configs and read their cases. */
export interface TargetTree {
  readonly controller: { readonly items: vscode.TestItemCollection };
  discoverConfigs(): Promise<void>;
  readConfig(configFile: string): Promise<unknown>;
}

export async function targetsOf(
  request: Pick<vscode.TestRunRequest, 'include' | 'exclude'>,
  tree: TargetTree,
  /** The file path of a config's URI (a case item may arrive without its parent). */
  fsPathOf: (uri: string) => string,
): Promise<Targets> {
  let include = request.include;
  if (include === undefined) {
    await tree.discoverConfigs();
    const all: vscode.TestItem[] = [];
    tree.controller.items.forEach((item) => all.push(item));
    include = all;
  }
  const excluded = new Set((request.exclude ?? []).map((item) => item.id));
  const targets: Targets = new Map();
  for (const item of include) {
    if (excluded.has(item.id)) continue;
    const parsed = parseCaseTestId(item.id);
    if (parsed === undefined) {
      const configFile = item.uri?.fsPath;
      if (configFile === undefined) continue;
      // Its cases are needed to run all but the excluded ones.
      await tree.readConfig(configFile);
      const children: string[] = [];
      let anyExcluded = false;
      item.children.forEach((child) => {
        if (excluded.has(child.id)) anyExcluded = true;
        else children.push(parseCaseTestId(child.id)?.caseId ?? '');
      });
      targets.set(configFile, anyExcluded ? new Set(children) : undefined);
    } else {
      const configFile = item.parent?.uri?.fsPath ?? fsPathOf(parsed.configUri);
      const existing = targets.get(configFile);
      if (targets.has(configFile) && existing === undefined) continue;
      targets.set(configFile, (existing ?? new Set()).add(parsed.caseId));
    }
  }
  return targets;
}
