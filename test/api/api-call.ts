import assert from 'node:assert/strict';
import { request, type HttpResult } from '../helpers/http.ts';
import { assertResponseMatches } from '../helpers/openapi-assert.ts';
import type { DevnetManifest } from '../../src/chain/devnet/manifest.ts';

/** What a stack trace looks like in text: V8 frames (`at fn (/path/file.ts:12:5)`) or source file paths with line numbers. */
export const STACK_TRACE = /(?:file:\/\/|node:internal|\/)[^\s"')]*\.(?:ts|js|mjs|cjs):\d+(?::\d+)?|node_modules\/|\bat (?:async )?\S+ \((?:file:|node:|\/)/;

/**
 * One HTTP request whose response body is checked against the OpenAPI document for `operationId`
 * and the status it came with (error bodies included), and never carries a stack trace.
 */
export async function call(operationId: string, url: string, init: Parameters<typeof request>[1] = {}): Promise<HttpResult> {
    const response = await request(url, init);
    assert.doesNotMatch(response.text, STACK_TRACE, `${operationId} ${response.status} response contains a stack trace`);
    if (response.status === 204) {
        assert.equal(response.text, '', '204 responses have no body');
        return response;
    }
    if (response.status !== 200) assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${operationId} ${response.status} should be JSON`);
    assertResponseMatches(operationId, response.status, response.body === undefined ? response.text : response.body);
    return response;
}

/** Asserts a 4xx error response with a `{"error": …}` body whose message contains every `fragments`. */
export function assertError(response: HttpResult, status: number, ...fragments: string[]): void {
    assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
    assert.equal(typeof response.body?.error, 'string', `error body expected: ${response.text}`);
    assert.ok(response.body.error.length > 0);
    for (const fragment of fragments) {
        assert.ok(response.body.error.includes(fragment), `error '${response.body.error}' should mention '${fragment}'`);
    }
}

export type ManifestAccount = DevnetManifest['accounts'][number];

export async function manifestOf(base: string): Promise<{ accounts: ManifestAccount[]; genesis_utime: number; global_id: number }> {
    const response = await call('getDevnetManifest', `${base}/devnet/manifest`);
    assert.equal(response.status, 200);
    return response.body;
}

export function accountNamed(manifest: { accounts: ManifestAccount[] }, name: string): ManifestAccount {
    const account = manifest.accounts.find(a => a.name === name);
    assert.ok(account, `manifest has no account '${name}'`);
    return account;
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const value = await check();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new assert.AssertionError({ message: `timed out waiting for ${what}` });
        await new Promise(resolve => setTimeout(resolve, 50));
    }
}
