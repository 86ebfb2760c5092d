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

const STONFI_V1_POOL = '82566ad72b6568fe7276437d3b0c911aab65ed701c13601941b2917305e81c11';
const PTON_V1_WALLET = '8836d2f41b39cd2cbdd8a66c10f9665d075242a66003bd8f14485bd6b140d303';
const TONCO_POOL = 'bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e';
const DEDUST_POOL = 'c0f9d14fbc8e14f0d72cba2214165eee35836ab174130912baf9dbfa43ead562';
const DEDUST_JETTON_VAULT = 'a30f0486b813dfe55f549fa986272349a96335e1e44e7276d4878c870083306f';
const DEDUST_DEPOSIT = '80edc8d7bbbb6526c3b06ccb7c2d02a82c20d8ccdf431bf4088b1f1470cc94cc';
const COFFEE_POOL = 'd236d360e53464a3a47837743602a9b04b501a329bbc20c356c24cfd355378cd';
const WALLET_V4R2 = 'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0';

const entries: Array<[string, string, string]> = [
    ['0:9a63c21f9764ba95104c049798df92c8b8c5cf73c25f22d586e2d97b9411ab4a', STONFI_V1_POOL, 'STON.fi v1 pool: the v1 router sends it swap#25938561 and it answers pay_to#f93bb43f'],
    ['0:112b930acff30ae755390198cade1c612e0d529901b667ee0f6fb65aa62ff1c2', STONFI_V1_POOL, 'STON.fi v1 pool: the v1 router sends it swap#25938561 and it answers pay_to#f93bb43f'],
    ['0:1150b518b2626ad51899f98887f8824b70065456455f7fe2813f012699a4061f', PTON_V1_WALLET, "pTON v1 wallet: the v1 router's wallet of the pTON v1 master"],
    ['0:f6e6f4ad13073e875413d6a96c60f430a94e4888e868c79208d02ff1b0336931', TONCO_POOL, "TONCO pool: the TONCO router sends it POOLV3_SWAP#a7fb58f8 and it answers ROUTERV3_PAY_TO#a1daa96d"],
    ['0:3b61a3f387f5c07a57839d99937708a976794ca0acafd5f5d55e4a6e12e854f2', TONCO_POOL, "TONCO pool: the TONCO router sends it POOLV3_SWAP#a7fb58f8 and it answers ROUTERV3_PAY_TO#a1daa96d"],
    ['0:d791177302c8b1b25df1e39f1741d1e701b957a7d3cf2210a58c98afcac5ceb7', TONCO_POOL, "TONCO pool: the TONCO router sends it POOLV3_SWAP#a7fb58f8 and it answers ROUTERV3_PAY_TO#a1daa96d"],
    ['0:79ad4ed8c5a1292c2b1dbf22d0f811a6be5e53573ad607d3f7bc28d9067d1152', DEDUST_POOL, 'DeDust pool: takes swap#61ee542d from a DeDust vault and logs swap#9c610de3'],
    ['0:012c58f261320ef45f34309ecb7820ecdd7f3b7b52439c9cd8d2aed0b4b681e3', DEDUST_POOL, 'DeDust pool: takes the next swap step from a DeDust pool and logs swap#9c610de3'],
    ['0:dc9b4e9196b7ae32eae6fb28a4f566cbea423ad7b07becead2445fd98e809816', DEDUST_POOL, 'DeDust pool: a DeDust liquidity deposit sends it deposit#b56b9598 and it mints LP jettons'],
    ['0:bdd0ca28e1a8c2177633e9d565f1e0f8eb701db1d73b0ef91c5872ec4774488f', DEDUST_POOL, 'DeDust pool: a DeDust liquidity deposit sends it deposit#b56b9598 and it mints LP jettons'],
    ['0:ae22566b00fe45ad88064798be0c68c0fae518a0ec699023485f37fe1fa34e3a', DEDUST_POOL, 'DeDust pool: a DeDust liquidity deposit sends it deposit#b56b9598 and it mints LP jettons'],
    ['0:37ffe5f6b80c451b4b363f8a52d37ca5dc5bbabcacea8b0cc8d2535277f3f590', DEDUST_POOL, 'DeDust pool: a DeDust liquidity deposit sends it deposit#b56b9598 and it rejects it'],
    ['0:e2538871d92e4824541cf4963121ebb7d6eb873e3d0fbeb9491a69bb61b49514', DEDUST_JETTON_VAULT, 'DeDust jetton vault: takes jettons with a DeDust swap payload and sends swap#61ee542d to a pool'],
    ['0:bc8db25f47b32eecae687b2888a070b78162e67428eeda9501b9c5ea9900a507', DEDUST_JETTON_VAULT, 'DeDust jetton vault: a pool sends it payout#ad4eb6f5 and it pays out jettons'],
    ['0:1fe013288aa3dfd14d800e836211ab537a68b0dd45e4b791fdd1a429792282da', DEDUST_JETTON_VAULT, 'DeDust jetton vault: takes jettons with a deposit payload and asks the DeDust factory for the deposit'],
    ['0:50e74913216cb06936b4d69fc99c78646a212e93076dd563ef74722f3f557948', DEDUST_JETTON_VAULT, 'DeDust jetton vault: takes jettons with a deposit payload and asks the DeDust factory for the deposit'],
    ['0:454afbf5ae8511939bb6357941b171df46ec596479d1048f8b5028bc1382cdf9', DEDUST_JETTON_VAULT, 'DeDust jetton vault: takes jettons with a deposit payload and asks the DeDust factory for the deposit'],
    ['0:6f7d004e411ba20c4a87383c5e35e46ce51d9961dec72e8f7dd136898ed5473f', DEDUST_JETTON_VAULT, 'DeDust jetton vault: takes jettons with a deposit payload and asks the DeDust factory for the deposit'],
    ['0:df1b37206f751eae3a5d14254fdc29c2b4655a378e6295ef13bb8bb14bfbf672', DEDUST_DEPOSIT, "DeDust liquidity deposit: deployed by the DeDust factory with the blank code, then set to the factory's deposit code"],
    ['0:2190b30fba1fd77d9f52ed25500677ef5abc47bb8b957debf9a6288362bc3bee', DEDUST_DEPOSIT, "DeDust liquidity deposit: deployed by the DeDust factory with the blank code, then set to the factory's deposit code"],
    ['0:7f6506a4bda7eb33e9d04bf5cfb2a0e1d438e93a2e409ca2267572f2c3ef4a21', DEDUST_DEPOSIT, "DeDust liquidity deposit: deployed by the DeDust factory with the blank code, then set to the factory's deposit code"],
    ['0:894d66fc0dd9dc963e40384988e921083f6b2ad3f7b0c02c91594c2966bf8571', DEDUST_DEPOSIT, "DeDust liquidity deposit: deployed by the DeDust factory with the blank code, then set to the factory's deposit code"],
    ['0:790931bc687eb86bfd92858c32964839dfe1635436ea05e031766986ac770457', COFFEE_POOL, 'Coffee pool: a Coffee vault sends it swap_internal#c0ffee20 and it logs swap_successful_event#c0ffee30'],
    ['0:c44cf0b64eb9dedfb010c7b24a508140d86f6e07789f9383bb9b2141ea9c08ea', COFFEE_POOL, 'Coffee pool: a Coffee vault sends it swap_internal#c0ffee20 and it logs swap_successful_event#c0ffee30'],
    ['0:3935d9da614b3283413b319b8845dbdd0857ecb5d06bec2428a697ef86aa8691', COFFEE_POOL, 'Coffee pool: a Coffee liquidity depository sends it deposit_liquidity_internal#c0ffee29 and it mints LP jettons'],
    ['0:9b44e061dddc313d829236e9816341a20caa65d751980e12c800d3cc4d188d14', COFFEE_POOL, 'Coffee pool: a Coffee liquidity depository sends it deposit_liquidity_internal#c0ffee29 and it mints LP jettons'],
    ['0:9e53b9a59cc76005e9b00d571d4933d8548361f87608d58bc1a0029faccef345', WALLET_V4R2, 'wallet v4r2: its signed external message has the v4 layout (subwallet 698983191, op 0)'],
];

export const ACCOUNT_CODE: ReadonlyMap<string, AccountCode> = new Map(entries.map(([address, codeHash, why]) => [address, { codeHash, why }]));

/** pTON masters, whose jetton is TON on the classifier's side (raw, upper hex). */
export const PTON_MASTERS: ReadonlySet<string> = new Set([
    '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C', // pTON v1 (EQCM3B12QK1e4yZSf8GtBRT0aLMNyEsBc_DhVfRRtOEffLez)
    '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3', // pTON v2 (EQBnGWMCf3-FZZq1W4IWcWiGAc3PHuZ0_H-7sad2oY00o83S)
    '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E', // TONCO's pTON (EQCUnExmdgwAKADi-j2KPKThyQqTc7U650cgM0g78UzZXn9J)
]);
