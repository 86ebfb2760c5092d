import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as noble from '@noble/ed25519';
import { encodeFrame } from '../../src/liteserver/adnl/frames.ts';
import { acceptHandshake, HandshakeError } from '../../src/liteserver/adnl/handshake.ts';
import { loadOrCreateServerKey, serverKeyFromSeed } from '../../src/liteserver/adnl/server-key.ts';
import { adnlSharedSecret, ed25519PublicKeyToX25519, x25519PrivateKeyFromEd25519Seed } from '../../src/liteserver/adnl/x25519.ts';
import { clientHandshake } from './raw-adnl-client.ts';

describe('ADNL server key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'liteserver-key-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('public key and key id agree with an independent ed25519 implementation', async () => {
        const seed = randomBytes(32);
        const key = serverKeyFromSeed(seed);
        assert.deepEqual(key.publicKey, Buffer.from(await noble.getPublicKey(seed)));
        const expectedId = createHash('sha256').update(Buffer.from([0xc6, 0xb4, 0x13, 0x48])).update(key.publicKey).digest();
        assert.deepEqual(key.keyId, expectedId);
    });

    test('the key file is created once with mode 0600 and reused', () => {
        const path = join(dir, 'sub', 'liteserver.key');
        const first = loadOrCreateServerKey(path);
        assert.equal(statSync(path).mode & 0o777, 0o600);
        assert.equal(statSync(path).size, 32);
        assert.deepEqual(loadOrCreateServerKey(path).publicKey, first.publicKey);
    });

    test('a key file of the wrong size is refused, not replaced', () => {
        const path = join(dir, 'bad.key');
        writeFileSync(path, Buffer.alloc(31));
        assert.throws(() => loadOrCreateServerKey(path), /32-byte/);
        assert.equal(statSync(path).size, 31);
    });
});

describe('ADNL key agreement', () => {
    test('shared secret matches @noble/ed25519 getSharedSecret and is symmetric', async () => {
        for (let i = 0; i < 5; i++) {
            const serverSeed = randomBytes(32);
            const clientSeed = randomBytes(32);
            const serverPublic = serverKeyFromSeed(serverSeed).publicKey;
            const clientPublic = serverKeyFromSeed(clientSeed).publicKey;
            const serverSide = adnlSharedSecret(x25519PrivateKeyFromEd25519Seed(serverSeed), clientPublic);
            const clientSide = adnlSharedSecret(x25519PrivateKeyFromEd25519Seed(clientSeed), serverPublic);
            assert.deepEqual(serverSide, clientSide);
            assert.deepEqual(serverSide, Buffer.from(await noble.getSharedSecret(clientSeed, serverPublic)));
        }
    });

    test('the Edwards identity (y = 1) has no Montgomery form', () => {
        const identity = Buffer.alloc(32);
        identity[0] = 1;
        assert.throws(() => ed25519PublicKeyToX25519(identity));
    });
});

describe('ADNL handshake', () => {
    const serverKey = serverKeyFromSeed(randomBytes(32));

    test('a valid handshake yields the mirror of the client streams', () => {
        const client = clientHandshake(serverKey.publicKey);
        const session = acceptHandshake(client.packet, serverKey);
        const toClient = encodeFrame(Buffer.from('from server'), session.encryptOutgoing);
        assert.deepEqual(client.decoder.push(toClient), [Buffer.from('from server')]);
        const toServer = encodeFrame(Buffer.from('from client'), client.encryptOutgoing);
        assert.equal(session.decryptIncoming.update(toServer).subarray(36, 47).toString(), 'from client');
    });

    test('a handshake for another key id is refused', () => {
        const client = clientHandshake(serverKey.publicKey, { keyId: randomBytes(32) });
        assert.throws(() => acceptHandshake(client.packet, serverKey), HandshakeError);
    });

    test('tampered parameters or digest are refused', () => {
        for (const offset of [70, 100, 255]) {
            const { packet } = clientHandshake(serverKey.publicKey);
            packet[offset] ^= 0x40;
            assert.throws(() => acceptHandshake(packet, serverKey), HandshakeError, `byte ${offset}`);
        }
    });

    test('a handshake for another server key fails the digest check', () => {
        const other = serverKeyFromSeed(randomBytes(32));
        const client = clientHandshake(other.publicKey, { keyId: serverKey.keyId });
        assert.throws(() => acceptHandshake(client.packet, serverKey), HandshakeError);
    });

    test('a packet of the wrong size is refused', () => {
        assert.throws(() => acceptHandshake(Buffer.alloc(255), serverKey), HandshakeError);
    });
});
