import { Address, Builder, Cell, Dictionary, beginCell, contractAddress, type DictionaryValue, type StateInit, type TupleReader } from '@ton/core';
import { sign } from '@ton/crypto';
import { contractCode } from './artifacts.ts';
import { commentCell } from './payload.ts';
import { DictKeys } from '../../../ton/cells/dict-keys.ts';

/**
 * The devnet's staking pools (contracts/nominator-pool.tolk, contracts/single-nominator.tolk),
 * wire-compatible with mainnet's TF nominator pool (ton-blockchain/nominator-pool) and orbs'
 * single-nominator pool: data layouts, StateInits, message bodies, the validator's signed stake
 * request, and readers of their get-method outputs. Both pools live in the masterchain.
 */

/** The elector's ops the pools send and receive. */
export const ELECTOR_OP = {
    /** new_stake#4e73744b query_id:uint64 validator_pubkey:uint256 stake_at:uint32 max_factor:uint32 adnl_addr:uint256 signature:^bits512 */
    newStake: 0x4e73744b,
    newStakeError: 0xee6f454c,
    newStakeOk: 0xf374484c,
    /** recover_stake#47657424 query_id:uint64 */
    recoverStake: 0x47657424,
    recoverStakeError: 0xfffffffe,
    recoverStakeOk: 0xf96f7324,
} as const;

/** The nominator pool's ops (body `op:uint32 query_id:uint64 ...`; nominators use text comments instead). */
export const NOMINATOR_POOL_OP = {
    /** accept the coins */
    topUp: 1,
    /** process_withdraw_requests limit:uint8 (anyone) */
    processWithdrawRequests: 2,
    /** emergency withdraw of one request: address:uint256 (anyone) */
    emergencyWithdraw: 3,
    /** validator deposit (validator; 1 gram fee) */
    validatorDeposit: 4,
    /** validator withdraw amount:Coins (validator, pool idle) */
    validatorWithdraw: 5,
    /** note a change of config param 34 (anyone) */
    updateValidatorSet: 6,
    /** forget votes older than 30 days (anyone) */
    cleanUpVotes: 7,
    newStake: ELECTOR_OP.newStake,
    recoverStake: ELECTOR_OP.recoverStake,
} as const;

/** The nominator pool's states (`state` of its data). */
export const NOMINATOR_POOL_STATE = { idle: 0, stakeSent: 1, stakeAccepted: 2 } as const;

/** Compute-phase exit codes of the nominator pool (mainnet's numbering). */
export const NOMINATOR_POOL_EXIT = {
    nominatorNotFound: 60,
    nominatorNotBasechain: 61,
    nominatorIsValidator: 62,
    unknownTextCommand: 64,
    tooManyNominators: 65,
    depositTooSmallForFee: 66,
    belowMinNominatorStake: 67,
    nominatorsDictTooDeep: 68,
    withdrawUnknownNominator: 69,
    unknownOp: 70,
    noWithdrawRequest: 71,
    notValidatorDeposit: 73,
    validatorWithdrawState: 74,
    notValidatorWithdraw: 75,
    validatorWithdrawTooMuch: 76,
    notValidatorStake: 78,
    stakeState: 79,
    stakeQueryId: 80,
    stakeTooSmall: 81,
    stakeAboveBalance: 82,
    validatorBelowMinStake: 83,
    validatorBelowMaxPunishment: 84,
    stakeWithWithdrawRequests: 85,
    stakeFee: 86,
    recoverTooEarly: 111,
    recoverRoundNotOver: 112,
    tooManyValidatorSetChanges: 113,
    voterNotBasechain: 121,
    voterNotNominator: 122,
    voterNoStake: 123,
    alreadyVoted: 124,
    noSuchVoting: 133,
    badHex: 329,
} as const;

/** Mainnet's amounts in the nominator pool. */
export const NOMINATOR_POOL_AMOUNTS = {
    minTonsForStorage: 10_000_000_000n,
    depositProcessingFee: 1_000_000_000n,
    minStakeToSend: 500_000_000_000n,
} as const;

/** The single-nominator pool's ops (owner: withdraw .. upgrade; validator: newStake, recoverStake). */
export const SINGLE_NOMINATOR_OP = {
    /** withdraw#1000 query_id:uint64 amount:Coins */
    withdraw: 0x1000,
    /** change_validator_address#1001 query_id:uint64 new_validator_address:MsgAddressInt */
    changeValidatorAddress: 0x1001,
    /** send_raw_msg#7702 query_id:uint64 mode:uint8 msg:^Cell */
    sendRawMsg: 0x7702,
    /** upgrade#9903 query_id:uint64 code:^Cell */
    upgrade: 0x9903,
    newStake: ELECTOR_OP.newStake,
    recoverStake: ELECTOR_OP.recoverStake,
} as const;

export const SINGLE_NOMINATOR_EXIT = {
    wrongNominatorWc: 0x2000,
    wrongQueryId: 0x2001,
    wrongSetCode: 0x2002,
    wrongValidatorWc: 0x2003,
    insufficientBalance: 0x2004,
    insufficientElectorFee: 0x2005,
} as const;

export const SINGLE_NOMINATOR_AMOUNTS = {
    minTonForStorage: 1_000_000_000n,
    minTonForSendMsg: 1_200_000_000n,
} as const;

// ---- nominator pool: data ----

export interface NominatorPoolConfig {
    /** The validator's wallet (masterchain); stored as its account id. */
    validatorAddress: Address;
    /** Share of each round's reward for the validator, in 1/10000 (3000 = 30 %). */
    validatorRewardShare: number;
    maxNominatorsCount: number;
    minValidatorStake: bigint;
    minNominatorStake: bigint;
}

export interface NominatorEntry {
    amount: bigint;
    pendingDepositAmount: bigint;
}

/** The pool's whole storage, as `get_pool_data` returns it (and as the data cell holds it). */
export interface NominatorPoolData {
    state: number;
    nominatorsCount: number;
    stakeAmountSent: bigint;
    validatorAmount: bigint;
    /** config.validator_address: the account id of the validator's masterchain wallet. */
    validatorAddress: bigint;
    validatorRewardShare: number;
    maxNominatorsCount: number;
    minValidatorStake: bigint;
    minNominatorStake: bigint;
    nominators: Dictionary<bigint, NominatorEntry>;
    withdrawRequests: Cell | null;
    stakeAt: number;
    savedValidatorSetHash: bigint;
    validatorSetChangesCount: number;
    validatorSetChangeTime: number;
    stakeHeldFor: number;
    configProposalVotings: Cell | null;
}

/** `[amount:Coins pending_deposit_amount:Coins]`, the nominators dictionary's values. */
export const NOMINATOR_ENTRY_VALUE: DictionaryValue<NominatorEntry> = {
    serialize(src, builder) {
        builder.storeCoins(src.amount).storeCoins(src.pendingDepositAmount);
    },
    parse(s) {
        return { amount: s.loadCoins(), pendingDepositAmount: s.loadCoins() };
    },
};

export function nominatorPoolCode(): Cell {
    return contractCode('nominator-pool');
}

function accountId(address: Address): bigint {
    return BigInt(`0x${address.hash.toString('hex')}`);
}

function checkPoolConfig(config: NominatorPoolConfig): void {
    if (config.validatorAddress.workChain !== -1) throw new Error('the validator of a nominator pool has a masterchain wallet');
    if (!Number.isInteger(config.validatorRewardShare) || config.validatorRewardShare < 0 || config.validatorRewardShare > 10000) {
        throw new Error(`validator_reward_share ${config.validatorRewardShare} is not within 0..10000`);
    }
    if (!Number.isInteger(config.maxNominatorsCount) || config.maxNominatorsCount < 0 || config.maxNominatorsCount > 0xffff) {
        throw new Error(`max_nominators_count ${config.maxNominatorsCount} is not a uint16`);
    }
}

/** The config reference: validator_address:uint256 validator_reward_share:uint16 max_nominators_count:uint16 min_validator_stake:Coins min_nominator_stake:Coins */
export function nominatorPoolConfigCell(config: NominatorPoolConfig): Cell {
    checkPoolConfig(config);
    return beginCell()
        .storeUint(accountId(config.validatorAddress), 256)
        .storeUint(config.validatorRewardShare, 16)
        .storeUint(config.maxNominatorsCount, 16)
        .storeCoins(config.minValidatorStake)
        .storeCoins(config.minNominatorStake)
        .endCell();
}

/** A new pool's data: idle, no nominators, nothing staked (as mainnet's new-pool.fif writes it). */
export function nominatorPoolData(config: NominatorPoolConfig): Cell {
    return beginCell()
        .storeUint(0, 8) // state
        .storeUint(0, 16) // nominators_count
        .storeCoins(0) // stake_amount_sent
        .storeCoins(0) // validator_amount
        .storeRef(nominatorPoolConfigCell(config))
        .storeDict(null) // nominators
        .storeDict(null) // withdraw_requests
        .storeUint(0, 32) // stake_at
        .storeUint(0, 256) // saved_validator_set_hash
        .storeUint(0, 8) // validator_set_changes_count
        .storeUint(0, 32) // validator_set_change_time
        .storeUint(0, 32) // stake_held_for
        .storeDict(null) // config_proposal_votings
        .endCell();
}

export function nominatorPoolStateInit(config: NominatorPoolConfig): StateInit {
    return { code: nominatorPoolCode(), data: nominatorPoolData(config) };
}

/** The pool's address: masterchain, as mainnet's pools. */
export function nominatorPoolAddress(config: NominatorPoolConfig): Address {
    return contractAddress(-1, nominatorPoolStateInit(config));
}

/** Reads a pool's data cell (the layout `get_pool_data` flattens). */
export function parseNominatorPoolStorage(data: Cell): NominatorPoolData {
    const s = data.beginParse();
    const state = s.loadUint(8);
    const nominatorsCount = s.loadUint(16);
    const stakeAmountSent = s.loadCoins();
    const validatorAmount = s.loadCoins();
    const c = s.loadRef().beginParse();
    const result: NominatorPoolData = {
        state,
        nominatorsCount,
        stakeAmountSent,
        validatorAmount,
        validatorAddress: c.loadUintBig(256),
        validatorRewardShare: c.loadUint(16),
        maxNominatorsCount: c.loadUint(16),
        minValidatorStake: c.loadCoins(),
        minNominatorStake: c.loadCoins(),
        nominators: s.loadDict(DictKeys.BigUint(256), NOMINATOR_ENTRY_VALUE),
        withdrawRequests: s.loadMaybeRef(),
        stakeAt: s.loadUint(32),
        savedValidatorSetHash: s.loadUintBig(256),
        validatorSetChangesCount: s.loadUint(8),
        validatorSetChangeTime: s.loadUint(32),
        stakeHeldFor: s.loadUint(32),
        configProposalVotings: s.loadMaybeRef(),
    };
    s.endParse();
    return result;
}

/** `get_pool_data`'s 17 values (the nominator pool's; the single-nominator pool answers a fixed stub of the same shape). */
export function readPoolData(r: TupleReader): NominatorPoolData {
    return {
        state: r.readNumber(),
        nominatorsCount: r.readNumber(),
        stakeAmountSent: r.readBigNumber(),
        validatorAmount: r.readBigNumber(),
        validatorAddress: r.readBigNumber(),
        validatorRewardShare: r.readNumber(),
        maxNominatorsCount: r.readNumber(),
        minValidatorStake: r.readBigNumber(),
        minNominatorStake: r.readBigNumber(),
        nominators: Dictionary.loadDirect(DictKeys.BigUint(256), NOMINATOR_ENTRY_VALUE, r.readCellOpt()),
        withdrawRequests: r.readCellOpt(),
        stakeAt: r.readNumber(),
        savedValidatorSetHash: r.readBigNumber(),
        validatorSetChangesCount: r.readNumber(),
        validatorSetChangeTime: r.readNumber(),
        stakeHeldFor: r.readNumber(),
        configProposalVotings: r.readCellOpt(),
    };
}

export interface ListedNominator {
    /** Basechain address of the nominator's wallet. */
    address: Address;
    amount: bigint;
    pendingDepositAmount: bigint;
    withdrawRequested: boolean;
}

/** `list_nominators`: a Lisp list of `[address:uint256, amount, pending_deposit_amount, withdraw_requested -1/0]`, as the contract lists them (descending addresses). */
export function readNominatorList(r: TupleReader): ListedNominator[] {
    const out: ListedNominator[] = [];
    let list = r.readTupleOpt();
    while (list) {
        const entry = list.readTuple();
        const hash = entry.readBigNumber();
        out.push({
            address: Address.parseRaw(`0:${hash.toString(16).padStart(64, '0')}`),
            amount: entry.readBigNumber(),
            pendingDepositAmount: entry.readBigNumber(),
            withdrawRequested: entry.readBigNumber() !== 0n,
        });
        list = list.readTupleOpt();
    }
    return out;
}

/** `get_nominator_data(address_hash)`: (amount, pending_deposit_amount, withdraw_found -1/0). */
export function readNominatorData(r: TupleReader): NominatorEntry & { withdrawRequested: boolean } {
    return { amount: r.readBigNumber(), pendingDepositAmount: r.readBigNumber(), withdrawRequested: r.readBigNumber() !== 0n };
}

/** The argument of `get_nominator_data`: the account id of the nominator's basechain wallet. */
export function nominatorKey(address: Address): bigint {
    return accountId(address);
}

// ---- the validator's stake request ----

export interface NewStakeRequest {
    validatorPubkey: Buffer;
    stakeAt: number;
    /** Max stake factor, 16.16 fixed point (65536 = 1.0; the elector refuses less). */
    maxFactor: number;
    adnlAddr: bigint;
    signature: Buffer;
}

/**
 * The 76 bytes the elector checks the signature over:
 * `0x654c5074 stake_at:uint32 max_factor:uint32 src_addr:uint256 adnl_addr:uint256`, where src_addr
 * is the account id of whoever sends new_stake to the elector (the pool).
 */
export function newStakeSignedData(stakeAt: number, maxFactor: number, src: Address, adnlAddr: bigint): Buffer {
    const b = Buffer.alloc(76);
    b.writeUInt32BE(0x654c5074, 0);
    b.writeUInt32BE(stakeAt, 4);
    b.writeUInt32BE(maxFactor, 8);
    src.hash.copy(b, 12);
    Buffer.from(adnlAddr.toString(16).padStart(64, '0'), 'hex').copy(b, 44);
    return b;
}

/** A stake request signed with the validator's key for `src` (the pool that will send it). */
export function signNewStakeRequest(args: { secretKey: Buffer; publicKey: Buffer; stakeAt: number; maxFactor: number; src: Address; adnlAddr: bigint }): NewStakeRequest {
    const data = newStakeSignedData(args.stakeAt, args.maxFactor, args.src, args.adnlAddr);
    return { validatorPubkey: args.publicKey, stakeAt: args.stakeAt, maxFactor: args.maxFactor, adnlAddr: args.adnlAddr, signature: sign(data, args.secretKey) };
}

/** validator_pubkey:uint256 stake_at:uint32 max_factor:uint32 adnl_addr:uint256 signature:^bits512 */
export function storeNewStakeRequest(b: Builder, request: NewStakeRequest): Builder {
    if (request.validatorPubkey.length !== 32 || request.signature.length !== 64) throw new Error('a stake request has a 32-byte key and a 64-byte signature');
    return b
        .storeBuffer(request.validatorPubkey)
        .storeUint(request.stakeAt, 32)
        .storeUint(request.maxFactor, 32)
        .storeUint(request.adnlAddr, 256)
        .storeRef(beginCell().storeBuffer(request.signature).endCell());
}

/**
 * What the validator sends a pool to stake (both pools): `new_stake#4e73744b query_id:uint64
 * stake:Coins` + the request; the pool forwards `new_stake query_id request` to the elector with
 * `stake`. query_id must not be 0 (the elector confirms only then).
 */
export function poolNewStakeBody(queryId: bigint, stake: bigint, request: NewStakeRequest): Cell {
    return storeNewStakeRequest(beginCell().storeUint(ELECTOR_OP.newStake, 32).storeUint(queryId, 64).storeCoins(stake), request).endCell();
}

/** recover_stake#47657424 query_id:uint64: to a pool (which forwards it) or to the elector. */
export function recoverStakeBody(queryId = 0n): Cell {
    return beginCell().storeUint(ELECTOR_OP.recoverStake, 32).storeUint(queryId, 64).endCell();
}

// ---- nominator pool: messages ----

/** A nominator's deposit (text "d"; 1 gram of the value is the processing fee). */
export function nominatorDepositBody(): Cell {
    return commentCell('d');
}

/** A nominator's withdrawal of everything (text "w"): immediate when the pool is idle, else a request. */
export function nominatorWithdrawBody(): Cell {
    return commentCell('w');
}

/** A vote on a config proposal (text "y<hash>" / "n<hash>", 64 hex digits). */
export function nominatorVoteBody(proposalHash: bigint, support: boolean): Cell {
    return commentCell(`${support ? 'y' : 'n'}${proposalHash.toString(16).toUpperCase().padStart(64, '0')}`);
}

function opBody(op: number, queryId: bigint): Builder {
    return beginCell().storeUint(op, 32).storeUint(queryId, 64);
}

export function processWithdrawRequestsBody(limit: number, queryId = 0n): Cell {
    return opBody(NOMINATOR_POOL_OP.processWithdrawRequests, queryId).storeUint(limit, 8).endCell();
}

export function emergencyWithdrawBody(nominator: Address, queryId = 0n): Cell {
    return opBody(NOMINATOR_POOL_OP.emergencyWithdraw, queryId).storeUint(accountId(nominator), 256).endCell();
}

export function validatorDepositBody(queryId = 0n): Cell {
    return opBody(NOMINATOR_POOL_OP.validatorDeposit, queryId).endCell();
}

export function validatorWithdrawBody(amount: bigint, queryId = 0n): Cell {
    return opBody(NOMINATOR_POOL_OP.validatorWithdraw, queryId).storeCoins(amount).endCell();
}

export function updateValidatorSetBody(queryId = 0n): Cell {
    return opBody(NOMINATOR_POOL_OP.updateValidatorSet, queryId).endCell();
}

export function cleanUpVotesBody(queryId = 0n): Cell {
    return opBody(NOMINATOR_POOL_OP.cleanUpVotes, queryId).endCell();
}

// ---- single-nominator pool ----

export interface SingleNominatorConfig {
    /** The cold wallet owning the stake. */
    owner: Address;
    /** The validator node's wallet (masterchain for new_stake). */
    validator: Address;
}

export function singleNominatorCode(): Cell {
    return contractCode('single-nominator');
}

/** owner_address:MsgAddressInt validator_address:MsgAddressInt */
export function singleNominatorData(config: SingleNominatorConfig): Cell {
    return beginCell().storeAddress(config.owner).storeAddress(config.validator).endCell();
}

export function singleNominatorStateInit(config: SingleNominatorConfig): StateInit {
    return { code: singleNominatorCode(), data: singleNominatorData(config) };
}

/** The pool's address: masterchain (new_stake is refused elsewhere). */
export function singleNominatorAddress(config: SingleNominatorConfig): Address {
    return contractAddress(-1, singleNominatorStateInit(config));
}

/** Owner: withdraw up to `amount` (capped at the balance above the 1-gram reserve). */
export function singleNominatorWithdrawBody(amount: bigint, queryId = 0n): Cell {
    return opBody(SINGLE_NOMINATOR_OP.withdraw, queryId).storeCoins(amount).endCell();
}

/** Owner: withdraw everything above the reserve (text "w", v1.1). */
export function singleNominatorWithdrawAllBody(): Cell {
    return commentCell('w');
}

export function singleNominatorChangeValidatorBody(validator: Address, queryId = 0n): Cell {
    return opBody(SINGLE_NOMINATOR_OP.changeValidatorAddress, queryId).storeAddress(validator).endCell();
}

export function singleNominatorSendRawMsgBody(mode: number, message: Cell, queryId = 0n): Cell {
    return opBody(SINGLE_NOMINATOR_OP.sendRawMsg, queryId).storeUint(mode, 8).storeRef(message).endCell();
}

export function singleNominatorUpgradeBody(code: Cell, queryId = 0n): Cell {
    return opBody(SINGLE_NOMINATOR_OP.upgrade, queryId).storeRef(code).endCell();
}

/** `get_roles`: (owner, validator). */
export function readRoles(r: TupleReader): { owner: Address; validator: Address } {
    return { owner: r.readAddress(), validator: r.readAddress() };
}
