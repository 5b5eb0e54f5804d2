import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeHttpServer, type FakeHttpServer } from './fakeHttpServer';

/**
 * A TEST DOUBLE of Google's OAuth token endpoint, so that application-default credentials work in
 * tests without reaching Google: google-auth-library reads an `external_account_authorized_user`
 * credentials file (a type gcloud writes for workforce identity) whose `token_url` is this server, and
 * refreshes its access token here (`grant_type=refresh_token`, client id and secret in Basic auth).
 * Every refresh gets the next token `ya29.test-token-<n>`; requests are recorded.
 */
export interface FakeGoogleTokenServer extends FakeHttpServer {
  /** The credentials file to put in GOOGLE_APPLICATION_CREDENTIALS. */
  readonly credentialsFile: string;
  /** Tokens handed out so far. */
  readonly issued: string[];
}

export async function startFakeGoogleTokenServer(
  options: { readonly status?: number } = {},
): Promise<FakeGoogleTokenServer> {
  const issued: string[] = [];
  const server = await startFakeHttpServer(() => {
    if (options.status !== undefined)
      return {
        status: options.status,
        body: '{"error":"invalid_grant","error_description":"refresh token TEST-REFRESH-SECRET is bad"}',
      };
    const token = `ya29.test-token-${issued.length + 1}`;
    issued.push(token);
    return { status: 200, body: JSON.stringify({ access_token: token, expires_in: 3600, token_type: 'Bearer' }) };
  });
  const credentialsFile = join(mkdtempSync(join(tmpdir(), 'evallens-adc-')), 'application_default_credentials.json');
  writeFileSync(
    credentialsFile,
    JSON.stringify({
      type: 'external_account_authorized_user',
      audience: '//iam.googleapis.com/locations/global/workforcePools/test-pool/providers/test-provider',
      client_id: 'test-client-id',
      client_secret: 'TEST-CLIENT-SECRET',
      refresh_token: 'TEST-REFRESH-SECRET',
      token_url: `${server.url}/token`,
    }),
  );
  return { ...server, credentialsFile, issued };
}
