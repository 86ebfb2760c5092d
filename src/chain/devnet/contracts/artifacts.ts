import { readFileSync } from 'node:fs';
import { Cell } from '@ton/core';

/** The devnet's own contracts, written in Tolk (contracts/<name>.tolk), compiled by scripts/build-contracts.ts. */
export const CONTRACT_NAMES = [
    'jetton-minter',
    'jetton-wallet',
    'nft-collection',
    'nft-item',
    'nominator-pool',
    'single-nominator',
    'librarian',
    'elector',
    'config',
    'dns-collection',
    'dns-item',
    'multisig-order-v2',
    'multisig-v2',
] as const;

export type ContractName = (typeof CONTRACT_NAMES)[number];

/** build/<name>.json, as written by `npm run build:contracts`. */
export interface ContractArtifact {
    name: string;
    codeBoc64: string;
    codeHashHex: string;
    tolkVersion: string;
}

const artifacts = new Map<ContractName, ContractArtifact>();
const codes = new Map<ContractName, Cell>();

export function contractArtifact(name: ContractName): ContractArtifact {
    let artifact = artifacts.get(name);
    if (!artifact) {
        const url = new URL(`./build/${name}.json`, import.meta.url);
        artifact = JSON.parse(readFileSync(url, 'utf8')) as ContractArtifact;
        artifacts.set(name, artifact);
    }
    return artifact;
}

/** The contract's code cell, checked against the hash recorded at build time. */
export function contractCode(name: ContractName): Cell {
    let code = codes.get(name);
    if (!code) {
        const artifact = contractArtifact(name);
        code = Cell.fromBase64(artifact.codeBoc64);
        const hash = code.hash().toString('hex');
        if (hash !== artifact.codeHashHex.toLowerCase()) {
            throw new Error(`contract artifact ${name}: code hash ${hash} is not the recorded ${artifact.codeHashHex}`);
        }
        codes.set(name, code);
    }
    return code;
}

/** Code hashes (hex, lower case) of the devnet's contracts, e.g. for interface detection by code hash. */
export function contractCodeHashes(): Record<ContractName, string> {
    return Object.fromEntries(CONTRACT_NAMES.map(name => [name, contractArtifact(name).codeHashHex.toLowerCase()])) as Record<ContractName, string>;
}
