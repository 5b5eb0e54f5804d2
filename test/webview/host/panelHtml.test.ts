import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentSecurityPolicy, createNonce, panelHtml } from '../../../extension/results/panelHtml';

const RESOURCES = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://x/dist/webview.js',
  styleUri: 'https://x/dist/webview.css',
};

describe('results panel HTML', () => {
  it('has a strict CSP: nothing by default, our script and stylesheet by nonce', () => {
    const html = panelHtml(RESOURCES, 'abc123');
    const csp = contentSecurityPolicy(RESOURCES.cspSource, 'abc123');
    assert.equal(csp, `default-src 'none'; script-src 'nonce-abc123'; style-src ${RESOURCES.cspSource} 'nonce-abc123'`);
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${csp.replace(/'/g, "'")}">`));
    assert.ok(html.includes('<script nonce="abc123" src="https://x/dist/webview.js"></script>'));
    assert.ok(html.includes('<link rel="stylesheet" nonce="abc123" href="https://x/dist/webview.css">'));
  });

  it('has no inline script, inline style or inline handler', () => {
    const html = panelHtml(RESOURCES, 'n');
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.doesNotMatch(html, /<script[^>]*>[^<]/, 'the one script is loaded by src, with no body');
    assert.doesNotMatch(html, /<style|style=|\son[a-z]+=/i);
  });

  it('makes a fresh, unguessable nonce every time (crypto, 128 bits)', () => {
    const nonces = new Set(Array.from({ length: 200 }, createNonce));
    assert.equal(nonces.size, 200);
    for (const nonce of nonces) assert.equal(Buffer.from(nonce, 'base64').length, 16);
  });
});
