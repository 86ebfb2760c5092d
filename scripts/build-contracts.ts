/**
 * Compiles the devnet's Tolk contracts (contracts/*.tolk) in-process with @ton/tolk-js and writes
 * one artifact per contract to src/chain/devnet/contracts/build/<name>.json:
 *   { "name", "codeBoc64", "codeHashHex", "tolkVersion" }
 * The artifacts are committed; runtime code loads them and never compiles.
 *
 *   npm run build:contracts            compile and write the artifacts
 *   npm run build:contracts -- --check compile and fail if a committed artifact differs
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTolkCompiler } from '@ton/tolk-js';
import { CONTRACT_NAMES, type ContractArtifact } from '../src/chain/devnet/contracts/artifacts.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sourcesDir = join(root, 'contracts');
const outDir = join(root, 'src', 'chain', 'devnet', 'contracts', 'build');

async function compile(name: string): Promise<ContractArtifact> {
    const result = await runTolkCompiler({
        entrypointFileName: `${name}.tolk`,
        // Imports arrive relative to the contracts folder ("common/jetton.tolk"); stay inside it.
        fsReadCallback: path => {
            const file = normalize(join(sourcesDir, path));
            if (!file.startsWith(sourcesDir)) throw new Error(`import outside contracts/: ${path}`);
            return readFileSync(file, 'utf8');
        },
    });
    if (result.status === 'error') throw new Error(`${name}.tolk: ${result.message}`);
    if (result.stderr.trim()) process.stderr.write(`${name}.tolk:\n${result.stderr}\n`);
    return { name, codeBoc64: result.codeBoc64, codeHashHex: result.codeHashHex.toLowerCase(), tolkVersion: result.tolkVersion };
}

async function main(): Promise<void> {
    const check = process.argv.includes('--check');
    mkdirSync(outDir, { recursive: true });
    let stale = 0;
    for (const name of CONTRACT_NAMES) {
        const artifact = await compile(name);
        const file = join(outDir, `${name}.json`);
        const text = `${JSON.stringify(artifact, null, 2)}\n`;
        if (check) {
            let committed = '';
            try {
                committed = readFileSync(file, 'utf8');
            } catch {
                // missing: stale
            }
            const same = committed === text;
            if (!same) stale++;
            console.log(`${same ? 'ok   ' : 'STALE'} ${name} ${artifact.codeHashHex}`);
        } else {
            writeFileSync(file, text);
            console.log(`${name}: ${artifact.codeHashHex} (tolk ${artifact.tolkVersion})`);
        }
    }
    if (stale > 0) {
        console.error(`${stale} artifact(s) differ from the sources: run npm run build:contracts`);
        process.exitCode = 1;
    }
}

await main();
