/**
 * Accounts of the real traces whose code the traces do not carry (deployed long before, or
 * deployed with a placeholder code they replaced), each with the code hash our table knows its
 * contract by and why this account is taken to run it: its role in the trace, as the protocol's
 * published messages define it. The code of these accounts could not be read from the chain here
 * (no network), so the binding is the role's; the replay then runs the hash through our own
 * detection, as the indexer would run the account's code.
 */
export interface AccountCode {
    codeHash: string;
    why: string;
}

const TONCO_POOL = 'bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e';
const WALLET_V4R2 = 'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0';

const entries: Array<[string, string, string]> = [
    ['0:f6e6f4ad13073e875413d6a96c60f430a94e4888e868c79208d02ff1b0336931', TONCO_POOL, "TONCO pool: the TONCO router sends it POOLV3_SWAP#a7fb58f8 and it answers ROUTERV3_PAY_TO#a1daa96d"],
    ['0:3b61a3f387f5c07a57839d99937708a976794ca0acafd5f5d55e4a6e12e854f2', TONCO_POOL, "TONCO pool: the TONCO router sends it POOLV3_SWAP#a7fb58f8 and it answers ROUTERV3_PAY_TO#a1daa96d"],
    ['0:d791177302c8b1b25df1e39f1741d1e701b957a7d3cf2210a58c98afcac5ceb7', TONCO_POOL, "TONCO pool: the TONCO router sends it POOLV3_SWAP#a7fb58f8 and it answers ROUTERV3_PAY_TO#a1daa96d"],
    ['0:9e53b9a59cc76005e9b00d571d4933d8548361f87608d58bc1a0029faccef345', WALLET_V4R2, 'wallet v4r2: its signed external message has the v4 layout (subwallet 698983191, op 0)'],
];

export const ACCOUNT_CODE: ReadonlyMap<string, AccountCode> = new Map(entries.map(([address, codeHash, why]) => [address, { codeHash, why }]));

/** pTON masters, whose jetton is TON on the classifier's side (raw, upper hex). */
export const PTON_MASTERS: ReadonlySet<string> = new Set([
    '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C', // pTON v1 (EQCM3B12QK1e4yZSf8GtBRT0aLMNyEsBc_DhVfRRtOEffLez)
    '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3', // pTON v2 (EQBnGWMCf3-FZZq1W4IWcWiGAc3PHuZ0_H-7sad2oY00o83S)
    '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E', // TONCO's pTON (EQCUnExmdgwAKADi-j2KPKThyQqTc7U650cgM0g78UzZXn9J)
]);
