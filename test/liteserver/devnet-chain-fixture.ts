import { Address } from '@ton/core';
import { DevnetSource } from '../../src/chain/devnet/devnet-source.ts';
import { tempDir } from '../helpers/stores.ts';

/**
 * A short real devnet for the liteserver's storage tests: its data directory (chain log at
 * `<path>/devnet/chain.sqlite`) and a way to produce more blocks, each with a faucet transfer to a
 * fresh address so an account changes (and a new one appears) in every later step.
 */
export class DevnetChain {
    readonly dir = tempDir('liteserver-devnet-');
    /** Addresses (raw `0:…`) the faucet sent to, in order. */
    readonly funded: string[] = [];

    get chainLogFile(): string {
        return `${this.dir.path}/devnet/chain.sqlite`;
    }

    get cellStoreFile(): string {
        return `${this.dir.path}/devnet/cells.sqlite`;
    }

    /** Runs the devnet until it is seeded, then `steps` more steps with a faucet transfer each; stops it. */
    async produce(steps: number): Promise<void> {
        const devnet = new DevnetSource({ dataDir: this.dir.path, blockIntervalMs: 20, faucetCap: 10n ** 12n });
        await devnet.start();
        try {
            while (!devnet.seeded) await devnet.nextBlock();
            for (let i = 0; i < steps; i++) {
                const to = Address.parse(`0:${(BigInt(this.funded.length + 1) * 0x1234567n).toString(16).padStart(64, '0')}`);
                await devnet.faucet(to, 10n ** 9n);
                this.funded.push(to.toRawString());
                await devnet.nextBlock();
            }
        } finally {
            await devnet.stop();
        }
    }

    remove(): void {
        this.dir.remove();
    }
}
