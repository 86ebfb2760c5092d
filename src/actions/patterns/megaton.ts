import type { JettonSwapDraft } from '../action.ts';
import { actionOf, type Bubble } from '../bubble.ts';
import { isAction } from '../checks.ts';
import type { Pattern } from '../straw.ts';
import { finishWithTransfer, newSwap, startFromTransfer, transferTo } from './swap-helpers.ts';

/**
 * Megaton.fi: the user's jettons to the router, the router's to the exchange, the exchange's back
 * to the router, and the router's transfer of the output to the user.
 */

function hop(d: JettonSwapDraft, b: Bubble): void {
    d.success &&= actionOf(b, 'JettonTransfer')!.success;
}

export const MegatonFiSwap: Pattern<JettonSwapDraft> = {
    name: 'MegatonFiSwap',
    create: newSwap('megatonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferTo('megatonfi_router')],
        build: (d, b) => {
            startFromTransfer(d, b);
            d.router = actionOf(b, 'JettonTransfer')!.recipient!;
        },
        singleChild: {
            checks: [isAction('JettonTransfer'), transferTo('megatonfi_exchange')],
            build: hop,
            singleChild: {
                checks: [isAction('JettonTransfer'), transferTo('megatonfi_router')],
                build: hop,
                singleChild: { checks: [isAction('JettonTransfer')], build: finishWithTransfer },
            },
        },
    },
};
