import type { AccountStatus, AccountStatusChange, TransactionComputePhase, TransactionDescription } from '@ton/core';
import { actionResultDescription } from '../ton/exit-codes.ts';
import type { ParsedTransaction } from '../ton/transaction.ts';
import type { AccountView } from './account-address.ts';
import type { MemberHole } from '../json/json.ts';
import { presentMessage } from './message.ts';

export interface TransactionContext {
    block: string;
    endBalance: bigint | null;
    /** The transaction's BOC, or where a template leaves it out (it is stored beside the text). */
    raw: Buffer | MemberHole;
}

const ACCOUNT_STATUS: Record<AccountStatus, string> = {
    'uninitialized': 'uninit',
    'frozen': 'frozen',
    'active': 'active',
    'non-existing': 'nonexist',
};

const STATUS_CHANGE: Record<AccountStatusChange, string> = {
    unchanged: 'acst_unchanged',
    frozen: 'acst_frozen',
    deleted: 'acst_deleted',
};

const TRANSACTION_TYPE: Record<TransactionDescription['type'], string> = {
    'generic': 'TransOrd',
    'tick-tock': 'TransTickTock',
    'storage': 'TransStorage',
    'split-prepare': 'TransSplitPrepare',
    'split-install': 'TransSplitInstall',
    'merge-prepare': 'TransMergePrepare',
    'merge-install': 'TransMergeInstall',
};

const SKIP_REASON: Record<string, string> = {
    'no-state': 'cskip_no_state',
    'bad-state': 'cskip_bad_state',
    'no-gas': 'cskip_no_gas',
    'suspended': 'cskip_suspended',
};

const BOUNCE_PHASE: Record<string, string> = {
    'negative-funds': 'TrPhaseBounceNegfunds',
    'no-funds': 'TrPhaseBounceNofunds',
    'ok': 'TrPhaseBounceOk',
};

/**
 * Transaction (spec 2.13) from an indexed transaction BOC. Texts made by it are stored at ingest:
 * a change to what it writes bumps TEXT_VERSION (transaction-template.ts).
 */
export function presentTransaction(parsed: ParsedTransaction, context: TransactionContext, accounts: AccountView) {
    const { tx } = parsed;
    const d = tx.description;
    const phases = phasesOf(d);
    return {
        hash: parsed.hash,
        lt: parsed.lt,
        account: accounts.accountAddress(parsed.account),
        success: parsed.success,
        utime: parsed.utime,
        orig_status: ACCOUNT_STATUS[tx.oldStatus],
        end_status: ACCOUNT_STATUS[tx.endStatus],
        total_fees: tx.totalFees.coins,
        end_balance: context.endBalance ?? undefined,
        transaction_type: TRANSACTION_TYPE[d.type],
        state_update_old: tx.stateUpdate.oldHash.toString('hex'),
        state_update_new: tx.stateUpdate.newHash.toString('hex'),
        in_msg: parsed.inMsg ? presentMessage(parsed.inMsg, accounts) : undefined,
        out_msgs: parsed.outMsgs.map(m => presentMessage(m, accounts)),
        block: context.block,
        prev_trans_hash: tx.prevTransactionHash.toString(16).padStart(64, '0'),
        prev_trans_lt: tx.prevTransactionLt,
        compute_phase: phases.compute ? presentCompute(phases.compute, code => accounts.exitCodeDescription(parsed.account, code)) : undefined,
        storage_phase: phases.storage
            ? {
                fees_collected: phases.storage.storageFeesCollected,
                fees_due: phases.storage.storageFeesDue ?? undefined,
                status_change: STATUS_CHANGE[phases.storage.statusChange],
            }
            : undefined,
        credit_phase: phases.credit
            ? { fees_collected: phases.credit.dueFeesColelcted ?? 0n, credit: phases.credit.credit.coins }
            : undefined,
        action_phase: phases.action
            ? {
                success: phases.action.success,
                result_code: phases.action.resultCode,
                total_actions: phases.action.totalActions,
                skipped_actions: phases.action.skippedActions,
                fwd_fees: phases.action.totalFwdFees ?? 0n,
                total_fees: phases.action.totalActionFees ?? 0n,
                result_code_description: actionResultDescription(phases.action.resultCode),
            }
            : undefined,
        bounce_phase: phases.bounce ? BOUNCE_PHASE[phases.bounce.type] : undefined,
        aborted: 'aborted' in d ? d.aborted : false,
        destroyed: 'destroyed' in d ? d.destroyed : false,
        raw: Buffer.isBuffer(context.raw) ? context.raw.toString('hex') : context.raw,
    };
}

function phasesOf(d: TransactionDescription) {
    return {
        storage: 'storagePhase' in d ? d.storagePhase ?? undefined : undefined,
        credit: 'creditPhase' in d ? d.creditPhase ?? undefined : undefined,
        compute: 'computePhase' in d ? d.computePhase : undefined,
        action: 'actionPhase' in d ? d.actionPhase ?? undefined : undefined,
        bounce: 'bouncePhase' in d ? d.bouncePhase ?? undefined : undefined,
    };
}

function presentCompute(phase: TransactionComputePhase, describe: (code: number) => string | MemberHole | undefined) {
    if (phase.type === 'skipped') return { skipped: true, skip_reason: SKIP_REASON[phase.reason] ?? phase.reason };
    return {
        skipped: false,
        success: phase.success,
        gas_fees: phase.gasFees,
        gas_used: phase.gasUsed,
        vm_steps: phase.vmSteps,
        exit_code: phase.exitCode,
        exit_code_description: describe(phase.exitCode),
    };
}
