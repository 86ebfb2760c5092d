import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { nonPublicAddressReason } from '../../src/net/address-policy.ts';
import { OutboundFetchError, outboundFetch, type OutboundFetchPolicy } from '../../src/net/safe-fetch.ts';

describe('address policy of outbound fetches', () => {
    it('refuses every non-public IPv4 and IPv6 address, the IPv4 ones inside IPv6 too', () => {
        const refused: [string, RegExp][] = [
            ['127.0.0.1', /loopback/], ['127.255.0.9', /loopback/], ['::1', /loopback/],
            ['169.254.169.254', /link-local/], ['fe80::1', /link-local/], ['fe80::1%eth0', /link-local/], ['[fe80::abcd]', /link-local/],
            ['10.1.2.3', /private/], ['172.16.0.1', /private/], ['172.31.255.255', /private/], ['192.168.1.1', /private/],
            ['100.64.0.1', /carrier-grade NAT/], ['100.127.255.255', /carrier-grade NAT/],
            ['0.0.0.0', /unspecified/], ['::', /unspecified/], ['0.1.2.3', /unspecified/],
            ['224.0.0.1', /multicast/], ['ff02::1', /multicast/], ['255.255.255.255', /reserved or broadcast/],
            ['fd12:3456::1', /unique-local/], ['fc00::1', /unique-local/], ['fec0::1', /site-local/],
            ['::ffff:127.0.0.1', /loopback/], ['::ffff:7f00:1', /loopback/], ['::ffff:169.254.169.254', /link-local/], ['::ffff:a9fe:a9fe', /link-local/],
            ['::ffff:10.0.0.1', /private/], ['::127.0.0.1', /loopback/], ['64:ff9b::a9fe:a9fe', /link-local/], ['64:ff9b:1::1', /NAT64/],
            ['2002:7f00:1::', /loopback/], ['2002:c0a8:101::1', /private/], ['2001:db8::1', /documentation/], ['192.0.2.10', /documentation/],
            ['198.18.0.1', /benchmarking/], ['100::1', /discard/], ['not-an-ip', /not an IP address/],
        ];
        for (const [address, why] of refused) assert.match(nonPublicAddressReason(address) ?? 'allowed', why, address);
    });

    it('lets public addresses through, right next to the refused ranges', () => {
        for (const address of ['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '169.253.255.255', '11.0.0.0',
            '223.255.255.255', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', 'fe7f::1', 'fbff::1']) {
            assert.equal(nonPublicAddressReason(address), null, address);
        }
    });
});

/**
 * Two loopback servers: `outside` on 127.0.0.2 plays a public server (the test policy lets that one
 * address through), `inside` on 127.0.0.1 plays the machine's own service that must not be reached.
 */
describe('outbound fetch', () => {
    let outside: Server;
    let inside: Server;
    let outsideBase: string;
    let insideBase: string;
    let insideRequests = 0;
    const hanging: ServerResponse[] = [];
    const publicOutside = (address: string) => (address === '127.0.0.2' ? null : nonPublicAddressReason(address));
    const policy = (extra: Partial<OutboundFetchPolicy> = {}): OutboundFetchPolicy => ({
        allowPrivate: false, refusal: publicOutside, timeoutMs: 2000, maxBytes: 1000,
        resolve: async host => {
            if (host === 'public.example') return ['127.0.0.2'];
            if (host === 'rebinding.example') return ['127.0.0.2', '127.0.0.1'];
            if (host === 'internal.example') return ['127.0.0.1'];
            throw new Error(`no such host ${host}`);
        },
        ...extra,
    });

    before(async () => {
        inside = createServer((_request, response) => {
            insideRequests++;
            response.end('{"secret": true}');
        });
        outside = createServer((request, response) => {
            const url = new URL(request.url!, 'http://x');
            const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
            if (chain) {
                const left = Number(chain[1]);
                if (left === 0) response.end('{"end": true}');
                else response.writeHead(302, { location: `/chain/${left - 1}` }).end();
            } else if (url.pathname === '/to') {
                response.writeHead(301, { location: url.searchParams.get('location')! }).end();
            } else if (url.pathname === '/host') {
                response.end(JSON.stringify({ host: request.headers.host }));
            } else if (url.pathname === '/declared-huge') {
                response.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
            } else if (url.pathname === '/streamed-huge') {
                response.writeHead(200);
                for (let i = 0; i < 50; i++) response.write('x'.repeat(100));
                response.end();
            } else if (url.pathname === '/slow-body') {
                response.writeHead(200).write('{"partial":');
                hanging.push(response);
            } else {
                hanging.push(response);
            }
        });
        await new Promise<void>(resolve => inside.listen(0, '127.0.0.1', resolve));
        await new Promise<void>(resolve => outside.listen(0, '127.0.0.2', resolve));
        insideBase = `http://127.0.0.1:${(inside.address() as AddressInfo).port}`;
        outsideBase = `http://127.0.0.2:${(outside.address() as AddressInfo).port}`;
    });

    after(async () => {
        for (const response of hanging) response.destroy();
        await new Promise(resolve => inside.close(resolve));
        await new Promise(resolve => outside.close(resolve));
    });

    const refused = (pattern: RegExp) => (error: unknown) => error instanceof OutboundFetchError && pattern.test(error.message);

    it('fetches from an allowed address, connecting to the checked address with the original Host header', async () => {
        const port = new URL(outsideBase).port;
        const response = await outboundFetch(`http://public.example:${port}/host`, policy());
        assert.equal(response.status, 200);
        assert.deepEqual(JSON.parse(response.body.toString()), { host: `public.example:${port}` });
    });

    it('refuses a loopback address before connecting', async () => {
        insideRequests = 0;
        await assert.rejects(outboundFetch(`${insideBase}/x`, policy()), refused(/127\.0\.0\.1 is a loopback address/));
        await assert.rejects(outboundFetch(`http://internal.example:${new URL(insideBase).port}/x`, policy()),
            refused(/internal\.example resolves to 127\.0\.0\.1, which is a loopback address/));
        assert.equal(insideRequests, 0);
    });

    it('refuses a host when any of its addresses is refused', async () => {
        insideRequests = 0;
        await assert.rejects(outboundFetch(`http://rebinding.example:${new URL(insideBase).port}/x`, policy()), refused(/resolves to 127\.0\.0\.1/));
        assert.equal(insideRequests, 0);
    });

    it('refuses a redirect from an allowed server to a private one, by address or by name', async () => {
        insideRequests = 0;
        await assert.rejects(outboundFetch(`${outsideBase}/to?location=${encodeURIComponent(`${insideBase}/secret`)}`, policy()),
            refused(/127\.0\.0\.1 is a loopback address/));
        const byName = `http://internal.example:${new URL(insideBase).port}/secret`;
        await assert.rejects(outboundFetch(`${outsideBase}/to?location=${encodeURIComponent(byName)}`, policy()), refused(/loopback/));
        await assert.rejects(outboundFetch(`${outsideBase}/to?location=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, policy()),
            refused(/169\.254\.169\.254 is a link-local address/));
        assert.equal(insideRequests, 0, 'the private server sees no request');
    });

    it('refuses a redirect to another scheme', async () => {
        await assert.rejects(outboundFetch(`${outsideBase}/to?location=${encodeURIComponent('file:///etc/passwd')}`, policy()), refused(/only http and https/));
        await assert.rejects(outboundFetch('ftp://public.example/x', policy()), refused(/only http and https/));
    });

    it('follows at most 3 redirects', async () => {
        const three = await outboundFetch(`${outsideBase}/chain/3`, policy());
        assert.deepEqual(JSON.parse(three.body.toString()), { end: true });
        assert.equal(three.url, `${outsideBase}/chain/0`);
        await assert.rejects(outboundFetch(`${outsideBase}/chain/4`, policy()), refused(/more than 3 redirects/));
    });

    it('caps the size, declared or streamed', async () => {
        await assert.rejects(outboundFetch(`${outsideBase}/declared-huge`, policy()), refused(/larger than 1000 bytes/));
        await assert.rejects(outboundFetch(`${outsideBase}/streamed-huge`, policy()), refused(/larger than 1000 bytes/));
    });

    it('caps the time, for the headers and for the body', async () => {
        await assert.rejects(outboundFetch(`${outsideBase}/hang`, policy({ timeoutMs: 200 })), refused(/no complete answer within 200 ms/));
        await assert.rejects(outboundFetch(`${outsideBase}/slow-body`, policy({ timeoutMs: 200 })), refused(/no complete answer within 200 ms/));
    });

    it('with allowPrivate reaches loopback addresses (the devnet\'s own metadata)', async () => {
        insideRequests = 0;
        const response = await outboundFetch(`${insideBase}/x`, { allowPrivate: true });
        assert.deepEqual(JSON.parse(response.body.toString()), { secret: true });
        assert.equal(insideRequests, 1);
    });
});
