import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

describe('--allow-private-fetch', () => {
    it('is unset by default (the service turns it on for a devnet only), a bare flag turns it on, =false off', () => {
        assert.equal(loadConfig([], {}).config.allowPrivateFetch, null);
        assert.equal(loadConfig(['--allow-private-fetch'], {}).config.allowPrivateFetch, true);
        assert.equal(loadConfig(['--allow-private-fetch=false'], {}).config.allowPrivateFetch, false);
        assert.equal(loadConfig([], { ALLOW_PRIVATE_FETCH: '1' }).config.allowPrivateFetch, true);
        assert.equal(loadConfig([], { ALLOW_PRIVATE_FETCH: 'false' }).config.allowPrivateFetch, false);
        assert.equal(loadConfig(['--allow-private-fetch=false'], { ALLOW_PRIVATE_FETCH: '1' }).config.allowPrivateFetch, false, 'the flag wins');
    });

    it('refuses a value that is not a yes or a no', () => {
        assert.throws(() => loadConfig(['--allow-private-fetch=yes'], {}), (error: unknown) => error instanceof ConfigError && /allow-private-fetch must be true or false, got 'yes'/.test(error.message));
    });
});
