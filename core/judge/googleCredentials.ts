import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GoogleAuth } from 'google-auth-library';
import { BoundedCache } from '../boundedCache';
import { ENGINE_CACHE_LIMITS } from '../engineContext';

/** What getting a Google access token came to; a reason never quotes the library's message (it may quote the credentials file). */
export type TokenOutcome =
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'missing'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string };

export type GoogleTokenSource = (
  env: Readonly<Record<string, string | undefined>>,
  project: string | undefined,
) => Promise<TokenOutcome>;

/** How google-auth-library says it found no credentials (its GoogleAuthExceptionMessages.NO_ADC_FOUND, not exported from the package root). */
const NO_ADC_MESSAGE = 'Could not load the default credentials';

const SCOPES = ['https://www.googleapis.com/auth/cloud-platform'];

export const NO_ADC_REASON =
  'no Google application-default credentials were found: set GOOGLE_APPLICATION_CREDENTIALS to a credentials file, or run `gcloud auth application-default login` (on Google Cloud, the attached service account is used)';

/**
 * A Google access token from application-default credentials, found as Google's libraries find them:
 * GOOGLE_APPLICATION_CREDENTIALS, else gcloud's well-known file (under CLOUDSDK_CONFIG or
 * ~/.config/gcloud), else the metadata server on Google Cloud. Any credential type google-auth-library
 * reads works (authorized_user, service_account, external_account, impersonated_service_account, …).
 */
export function googleAccessTokenWith(
  auths: GoogleAuths = new BoundedCache(ENGINE_CACHE_LIMITS.googleAuths),
): GoogleTokenSource {
  return (env, project) => googleAccessToken(env, project, auths);
}

/**
 * One GoogleAuth per credentials file, kept by the host (its engine context): it caches the access
 * token and refreshes it before it expires, so judge calls share one token. Made at the first judge
 * call, never at load.
 */
type GoogleAuths = BoundedCache<string, GoogleAuth>;

async function googleAccessToken(
  env: Readonly<Record<string, string | undefined>>,
  project: string | undefined,
  auths: GoogleAuths,
): Promise<TokenOutcome> {
  const file = credentialsFile(env);
  // Without a file only Google Cloud's metadata server can sign in; off Google Cloud, asking it would
  // cost a network probe (and a warning on stderr) to learn what is already known.
  if (file === undefined && !(await mayHaveMetadataServer(env))) return { kind: 'missing', reason: NO_ADC_REASON };
  const key = file ?? '';
  let auth = auths.get(key);
  if (auth === undefined) {
    // Loaded at the first Vertex call: a run without one, and the language server, never pay for it.
    const { GoogleAuth } = await import('google-auth-library');
    // projectId given: the library then never looks a project up (which may run gcloud).
    auth = new GoogleAuth({
      scopes: SCOPES,
      projectId: project ?? 'evallens-judge',
      ...(file === undefined ? {} : { keyFilename: file }),
    });
    auths.set(key, auth);
  }
  try {
    const client = await auth.getClient();
    const { token } = await client.getAccessToken();
    if (typeof token !== 'string' || token === '')
      return { kind: 'failed', reason: 'the Google credentials gave no access token' };
    return { kind: 'token', token };
  } catch (e) {
    if (e instanceof Error && e.message.startsWith(NO_ADC_MESSAGE)) return { kind: 'missing', reason: NO_ADC_REASON };
    // Which file, not its path: the path is an environment variable's value.
    const where =
      file === undefined
        ? 'application-default credentials'
        : env['GOOGLE_APPLICATION_CREDENTIALS']
          ? 'the file GOOGLE_APPLICATION_CREDENTIALS names'
          : "gcloud's application-default credentials file";
    return { kind: 'failed', reason: `cannot get a Google access token from ${where}: ${safeCause(e)}` };
  }
}

function credentialsFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const named = env['GOOGLE_APPLICATION_CREDENTIALS'];
  if (named !== undefined && named !== '') return named;
  const configDir =
    env['CLOUDSDK_CONFIG'] ||
    (env['HOME']
      ? join(env['HOME'], '.config', 'gcloud')
      : env['APPDATA']
        ? join(env['APPDATA'], 'gcloud')
        : undefined);
  if (configDir === undefined) return undefined;
  const wellKnown = join(configDir, 'application_default_credentials.json');
  return existsSync(wellKnown) ? wellKnown : undefined;
}

/** On Google Cloud (as gcp-metadata tells from local signs: serverless variables, the BIOS vendor, the MAC prefix), or a metadata server named by the person. */
async function mayHaveMetadataServer(env: Readonly<Record<string, string | undefined>>): Promise<boolean> {
  if (env['GCE_METADATA_HOST'] || env['GCE_METADATA_IP']) return true;
  const detection = env['METADATA_SERVER_DETECTION'];
  if (detection === 'none') return false;
  if (detection === 'assume-present' || detection === 'ping-only') return true;
  const { detectGCPResidency } = await import('gcp-metadata');
  return detectGCPResidency();
}

/** An HTTP status or a system error code: never the message, which can quote the file or the token response. */
function safeCause(e: unknown): string {
  const status = (e as { response?: { status?: unknown } } | undefined)?.response?.status;
  if (typeof status === 'number') return `the token endpoint answered HTTP ${status}`;
  const code = (e as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  const cause = (e as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (typeof cause === 'string' && /^[A-Z_]+$/.test(cause)) return cause;
  return 'the credentials could not be used (check the file and the account)';
}
