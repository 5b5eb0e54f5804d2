/**
 * The configs the extension knows and their cases, read on demand. One discovery per config at a
 * time (a change during a read queues one more read, not many). vscode-free: the Test Explorer tree,
 * the CodeLens provider and the watchers all read from it and listen to its changes.
 */
import type { CaseSite } from '../editor/caseAnnotations';
import type { DiscoveredConfig } from './caseDiscovery';

export type Discover = (configFile: string) => Promise<DiscoveredConfig>;

interface Entry {
  current?: DiscoveredConfig;
  reading?: Promise<DiscoveredConfig> | undefined;
  /** A change came in while reading: read again when the read ends. */
  stale: boolean;
}

export class CaseIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<
    (config: DiscoveredConfig | { readonly configFile: string; readonly removed: true }) => void
  >();

  constructor(private readonly discover: Discover) {}

  onDidChange(listener: (config: DiscoveredConfig | { readonly configFile: string; readonly removed: true }) => void): {
    dispose(): void;
  } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The config files known, read or not. */
  configFiles(): string[] {
    return [...this.entries.keys()];
  }

  has(configFile: string): boolean {
    return this.entries.has(configFile);
  }

  /** Makes a config known without reading it (the tree lists it; its cases are read when asked). */
  add(configFile: string): void {
    if (!this.entries.has(configFile)) this.entries.set(configFile, { stale: false });
  }

  get(configFile: string): DiscoveredConfig | undefined {
    return this.entries.get(configFile)?.current;
  }

  /** The config's cases, reading them when they have not been read yet. */
  async ensure(configFile: string): Promise<DiscoveredConfig> {
    const entry = this.entries.get(configFile);
    if (entry?.current !== undefined) return entry.current;
    return this.refresh(configFile);
  }

  /** Reads the config again (its file or its dataset changed). */
  refresh(configFile: string): Promise<DiscoveredConfig> {
    const known = this.entries.get(configFile);
    const entry: Entry = known ?? { stale: false };
    if (known === undefined) this.entries.set(configFile, entry);
    if (entry.reading !== undefined) {
      entry.stale = true;
      return entry.reading;
    }
    const reading = this.readUntilSettled(configFile, entry).finally(() => {
      entry.reading = undefined;
    });
    entry.reading = reading;
    return reading;
  }

  private async readUntilSettled(configFile: string, entry: Entry): Promise<DiscoveredConfig> {
    let found: DiscoveredConfig;
    do {
      entry.stale = false;
      found = await this.discover(configFile);
    } while (entry.stale);
    // A config removed while it was read stays removed.
    if (this.entries.get(configFile) === entry) {
      entry.current = found;
      for (const listener of this.listeners) listener(found);
    }
    return found;
  }

  remove(configFile: string): void {
    if (!this.entries.delete(configFile)) return;
    for (const listener of this.listeners) listener({ configFile, removed: true });
  }

  /** The configs that read `file`: as their dataset, or the config itself (inline cases). */
  configsReading(file: string): string[] {
    const found: string[] = [];
    for (const [configFile, entry] of this.entries) {
      if (configFile === file || entry.current?.datasetFile === file) found.push(configFile);
    }
    return found;
  }

  /** Every case whose line is in `file`, with the config that runs it. */
  sitesInFile(file: string): CaseSite[] {
    const sites: CaseSite[] = [];
    for (const [configFile, entry] of this.entries) {
      for (const c of entry.current?.cases ?? []) {
        if (c.range.file === file) sites.push({ configFile, caseId: c.id, line: c.range.start.line });
      }
    }
    return sites;
  }
}
