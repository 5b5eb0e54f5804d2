import { toDisplay } from './displayPosition';

/**
 * Credential detectors for `secret_scan`, written from the public token formats. Every pattern is a
 * literal prefix behind a left-boundary look-behind, followed by character-class runs that cannot
 * overlap the literal that follows them: no nested quantifiers and no ambiguous alternation, so a
 * match attempt can start only at the start of a token-like run and the scan is linear in the text.
 *
 * A finding carries the detector, the position and the length, never the matched text.
 */

export const SECRET_DETECTORS = [
  'aws_access_key_id',
  'github_token',
  'pem_private_key',
  'slack_token',
  'openai_api_key',
  'anthropic_api_key',
  'google_api_key',
  'stripe_secret_key',
  'jwt',
] as const;

export type SecretDetectorName = (typeof SECRET_DETECTORS)[number];

export interface SecretFinding {
  readonly detector: SecretDetectorName;
  /** 0-based offset in UTF-16 code units. */
  readonly offset: number;
  /** Length in UTF-16 code units. */
  readonly length: number;
  /** 1-based line (`\n`, `\r\n` and `\r` end lines). */
  readonly line: number;
  /** 1-based column in UTF-16 code units. */
  readonly column: number;
}

export interface SecretScan {
  /** Findings in order of offset (then detector order). */
  readonly findings: readonly SecretFinding[];
  /** AWS documentation key ids (`…EXAMPLE`) that were not reported. */
  readonly documentationExamplesSkipped: number;
}

interface Match {
  readonly offset: number;
  readonly length: number;
}

interface Detector {
  /** Global pattern; a match is a candidate finding. */
  readonly pattern: RegExp;
  /**
   * Literals every match of `pattern` contains (at least one of them): a text holding none cannot
   * match, so masking skips the scan for it (`mayMatchAMaskRule` in secretMask.ts). Each is read off the pattern's
   * literal prefix; test/shared/text/secretPrefilter.test.ts checks every detector against them.
   */
  readonly anchors: readonly string[];
  /** Extra check on a candidate (cheap, over the match only). */
  readonly accept?: (token: string) => boolean;
  /** Whether a candidate is a published documentation example. */
  readonly documentationExample?: (token: string) => boolean;
}

const DETECTORS: { readonly [name in SecretDetectorName]: Detector } = {
  // AKIA (long-term), ASIA (temporary), ABIA, ACCA, A3T? + 16: 20 upper-case letters and digits.
  aws_access_key_id: {
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    anchors: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'],
    documentationExample: (token) => token.endsWith('EXAMPLE'),
  },
  // Classic tokens: prefix + 36 base62 characters (GitHub may lengthen them, so the rest of the run
  // counts too); fine-grained: github_pat_ + 82 of [A-Za-z0-9_].
  github_token: {
    pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{82,})/g,
    anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
  // The header; `scan` extends a finding to its footer (see extendPem).
  pem_private_key: {
    pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
    // A finding is a header, extended to its footer: no header, no finding.
    anchors: ['-----BEGIN '],
  },
  slack_token: {
    pattern: /(?<![A-Za-z0-9_-])(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/g,
    anchors: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xapp-'],
  },
  // sk-…, sk-proj-…, sk-svcacct-…, sk-admin-…; never sk-ant-… (Anthropic). Random keys always
  // hold a digit, which keeps slugs such as "sk-this-is-not-a-real-key" out.
  openai_api_key: {
    pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{20,}/g,
    anchors: ['sk-'],
    accept: (token) => /[0-9]/.test(token.slice(3)),
  },
  anthropic_api_key: {
    pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}/g,
    anchors: ['sk-ant-'],
  },
  google_api_key: {
    pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
    anchors: ['AIza'],
  },
  stripe_secret_key: {
    pattern: /(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/g,
    anchors: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
  },
  // header.payload.signature, header and payload JSON objects (base64url of `{"` is `eyJ`).
  jwt: {
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+/g,
    anchors: ['eyJ'],
  },
};

/** Each detector's anchors: a text holding none of them has no finding, whichever detectors run. */
export function detectorAnchors(name: SecretDetectorName): readonly string[] {
  return DETECTORS[name].anchors;
}

const PEM_FOOTER = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/** Runs the chosen detectors over `text`. */
export function scanForSecrets(
  text: string,
  detectors: readonly SecretDetectorName[],
  options: { readonly allowDocumentationExamples: boolean },
): SecretScan {
  const raw: { detector: SecretDetectorName; match: Match }[] = [];
  let documentationExamplesSkipped = 0;
  for (const name of SECRET_DETECTORS) {
    if (!detectors.includes(name)) continue;
    const detector = DETECTORS[name];
    const matches = name === 'pem_private_key' ? pemBlocks(text) : matchesOf(text, detector);
    for (const match of matches) {
      if (
        options.allowDocumentationExamples &&
        detector.documentationExample?.(text.slice(match.offset, match.offset + match.length)) === true
      ) {
        documentationExamplesSkipped++;
        continue;
      }
      raw.push({ detector: name, match });
    }
  }
  raw.sort(
    (x, y) =>
      x.match.offset - y.match.offset || SECRET_DETECTORS.indexOf(x.detector) - SECRET_DETECTORS.indexOf(y.detector),
  );
  const positions = linesAndColumns(
    text,
    raw.map((r) => r.match.offset),
  );
  const findings = raw.map((r, i) => {
    const at = positions[i] as { line: number; column: number };
    return { detector: r.detector, offset: r.match.offset, length: r.match.length, line: at.line, column: at.column };
  });
  return { findings, documentationExamplesSkipped };
}

function matchesOf(text: string, detector: Detector): Match[] {
  const pattern = detector.pattern;
  const found: Match[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (detector.accept === undefined || detector.accept(m[0])) found.push({ offset: m.index, length: m[0].length });
  }
  return found;
}

/**
 * PEM private keys: each header runs to the first footer after it when that footer comes before the
 * next header; otherwise the finding is the header alone. Headers and footers are each found in one
 * pass and paired in order, so this stays linear.
 */
function pemBlocks(text: string): Match[] {
  const headers = matchesOf(text, DETECTORS.pem_private_key);
  if (headers.length === 0) return [];
  const footers = matchesOf(text, { pattern: PEM_FOOTER, anchors: ['-----END '] });
  const blocks: Match[] = [];
  let f = 0;
  for (let h = 0; h < headers.length; h++) {
    const header = headers[h] as Match;
    const headerEnd = header.offset + header.length;
    while (f < footers.length && (footers[f] as Match).offset < headerEnd) f++;
    const footer = footers[f];
    const nextHeader = headers[h + 1];
    if (footer !== undefined && (nextHeader === undefined || footer.offset < nextHeader.offset)) {
      blocks.push({ offset: header.offset, length: footer.offset + footer.length - header.offset });
      f++;
    } else {
      blocks.push(header);
    }
  }
  return blocks;
}

/** 1-based line and column (UTF-16 units) of each offset; `offsets` must be ascending. */
function linesAndColumns(text: string, offsets: readonly number[]): { line: number; column: number }[] {
  const result: { line: number; column: number }[] = [];
  let line = 0;
  let lineStart = 0;
  let i = 0;
  for (const offset of offsets) {
    for (; i < offset; i++) {
      const unit = text.charCodeAt(i);
      if (unit === 0x0a || (unit === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
        line++;
        lineStart = i + 1;
      }
    }
    result.push(toDisplay({ line, column: offset - lineStart }));
  }
  return result;
}
