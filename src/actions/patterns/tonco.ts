import type { Cell } from '@ton/core';
import { loadMsgAddress, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonSwapDraft } from '../action.ts';
import { hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { finishWithTransfer, newSwap, startFromTransfer, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * TONCO (concentrated-liquidity v3 pools): jettons (or pTON) to the router with a POOLV3_SWAP
 * payload, the router's POOLV3_SWAP#a7fb58f8 to the pool, the pool's ROUTERV3_PAY_TO#a1daa96d
 * back to the router, and the router's transfer of the output to the user.
 */

/** exit codes of ROUTERV3_PAY_TO: 200 swap done, 230 swap failed (refund) */
const TONCO_SWAP_OK = 200;

/** ROUTERV3_PAY_TO#a1daa96d query_id:uint64 reciever0:MsgAddress reciever1:MsgAddress exit_code:uint32 … */
function payToExitCode(body: Cell | null): number | undefined {
    if (!body) return undefined;
    return tryLoad((s) => {
        s.skip(32 + 64);
        loadMsgAddress(s);
        loadMsgAddress(s);
        return s.loadUint(32);
    }, body) ?? undefined;
}

export const ToncoSwap: Pattern<JettonSwapDraft> = {
    name: 'ToncoSwap',
    create: newSwap('tonco'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.toncoPoolSwap)],
        build: startFromTransfer,
        singleChild: {
            checks: [isTx, hasOp(OP.toncoPoolSwap), hasInterface('tonco_pool')],
            build: (d, b) => {
                d.success &&= tx(b).success;
            },
            singleChild: {
                checks: [isTx, hasOp(OP.toncoRouterPayTo)],
                build: (d, b) => {
                    const t = tx(b);
                    d.router = t.account;
                    d.success &&= t.success && payToExitCode(t.body) === TONCO_SWAP_OK;
                },
                singleChild: { checks: [isAction('JettonTransfer')], build: finishWithTransfer },
            },
        },
    },
};
