import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { globalConfigJson, loadLiteServers, parseLiteServers } from '../../../src/chain/lite/global-config.ts';
import { shardsOverlap, fromTlShard, toTlShard } from '../../../src/chain/lite/lite-block-id.ts';
import { tempDir } from '../../helpers/stores.ts';

const KEY = Buffer.alloc(32, 7).toString('base64');

test('liteservers of a global config: signed TL ints as IPv4 addresses, keys as 32 bytes', () => {
    const servers = parseLiteServers(JSON.stringify({
        '@type': 'config.global',
        liteservers: [
            { ip: -1795443737, port: 4924, id: { '@type': 'pub.ed25519', key: KEY } },
            { ip: 1137658550, port: 31142, id: { '@type': 'pub.ed25519', key: KEY } },
        ],
    }));
    assert.deepEqual(servers.map(s => `${s.host}:${s.port}`), ['148.251.179.231:4924', '67.207.74.182:31142']);
    assert.deepEqual(servers[0].publicKey, Buffer.alloc(32, 7));
});

test('a malformed global config is refused with what is wrong', () => {
    assert.throws(() => parseLiteServers('{'), /not JSON/);
    assert.throws(() => parseLiteServers('{"liteservers": []}'), /no liteservers/);
    assert.throws(() => parseLiteServers(JSON.stringify({ liteservers: [{ ip: 1, port: 70000, id: { '@type': 'pub.ed25519', key: KEY } }] })), /liteservers\[0\]\.port/);
    assert.throws(() => parseLiteServers(JSON.stringify({ liteservers: [{ ip: 1, port: 1, id: { '@type': 'pub.ed25519', key: 'AAAA' } }] })), /32 bytes/);
    assert.throws(() => parseLiteServers(JSON.stringify({ liteservers: [{ ip: 1.5, port: 1, id: { '@type': 'pub.ed25519', key: KEY } }] })), /ip/);
});

test('the global config the devnet writes reads back, with the full shard as an exact 64-bit integer', async () => {
    const text = globalConfigJson([{ host: '127.0.0.1', port: 8082, publicKey: Buffer.alloc(32, 1) }], { workchain: -1, rootHash: Buffer.alloc(32, 2), fileHash: Buffer.alloc(32, 3) });
    assert.match(text, /"shard": -9223372036854775808/);
    const dir = tempDir('global-config-');
    try {
        const file = join(dir.path, 'global.config.json');
        writeFileSync(file, text);
        const [server] = await loadLiteServers(file);
        assert.equal(server.host, '127.0.0.1');
        assert.equal(server.port, 8082);
        assert.deepEqual(server.publicKey, Buffer.alloc(32, 1));
        await assert.rejects(loadLiteServers(join(dir.path, 'missing.json')), /cannot read the global config/);
    } finally {
        dir.remove();
    }
});

test('a global config from an http URL', async () => {
    const body = globalConfigJson([{ host: '10.0.0.1', port: 1234, publicKey: Buffer.alloc(32, 9) }]);
    const server = createServer((request, response) => {
        if (request.url === '/global.config.json') response.end(body);
        else response.writeHead(404).end();
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
        const [found] = await loadLiteServers(`http://127.0.0.1:${port}/global.config.json`);
        assert.equal(`${found.host}:${found.port}`, '10.0.0.1:1234');
        await assert.rejects(loadLiteServers(`http://127.0.0.1:${port}/missing`), /HTTP 404/);
    } finally {
        server.close();
    }
});

test('shard ids: lite API longs and overlap across splits', () => {
    assert.equal(toTlShard('8000000000000000'), '-9223372036854775808');
    assert.equal(fromTlShard('-9223372036854775808'), '8000000000000000');
    assert.equal(fromTlShard(toTlShard('c000000000000000')), 'c000000000000000');
    assert.ok(shardsOverlap('8000000000000000', '4000000000000000'));
    assert.ok(shardsOverlap('c000000000000000', 'e000000000000000'));
    assert.ok(!shardsOverlap('4000000000000000', 'c000000000000000'));
    assert.ok(!shardsOverlap('2000000000000000', '6000000000000000'));
    assert.ok(shardsOverlap('6000000000000000', '4000000000000000'));
});
