import type { SubscribeDraft, UnSubscribeDraft } from '../action.ts';
import { actionOf, type Bubble } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, hasValue, isAction, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern } from '../straw.ts';
import type { EngineContext } from '../bubble.ts';
import { tx } from './tx.ts';

/** Subscriptions: wallet v4 plugins that charge the wallet every period. */

const isSubscription: Check = (b, ctx) =>
    anyOf([hasInterface('subscription_v1')], [hasInterface('subscription_v2')])(b, ctx) || ctx.facts.subscriptions?.has(tx(b).account) === true;

function describe(d: SubscribeDraft | UnSubscribeDraft, subscription: string, ctx: EngineContext): void {
    d.subscription = subscription;
    const facts = ctx.facts.subscriptions?.get(subscription);
    if (!facts) return;
    d.subscriber = facts.wallet;
    d.beneficiary = facts.beneficiary;
    // The plugin has no separate admin: the beneficiary manages it.
    d.admin = facts.beneficiary;
    if (d.type === 'Subscribe' && d.amount === 0n && d.initial === false) d.amount = facts.amount;
}

function newSubscribe(): SubscribeDraft {
    return { type: 'Subscribe', success: false, subscriber: UNKNOWN_ADDRESS, subscription: UNKNOWN_ADDRESS, beneficiary: UNKNOWN_ADDRESS, admin: UNKNOWN_ADDRESS, amount: 0n, initial: false };
}

function newUnsubscribe(): UnSubscribeDraft {
    return { type: 'UnSubscribe', success: false, subscriber: UNKNOWN_ADDRESS, subscription: UNKNOWN_ADDRESS, beneficiary: UNKNOWN_ADDRESS, admin: UNKNOWN_ADDRESS };
}

/** The wallet installs and deploys the plugin (deploy#f71783cb); the first payment comes with it when the plugin asks at once. */
export const SubscriptionDeploy: Pattern<SubscribeDraft> = {
    name: 'SubscriptionDeploy',
    create: newSubscribe,
    root: {
        checks: [isTx, hasInterface('wallet')],
        build: (d, b) => {
            d.subscriber = tx(b).account;
            d.initial = true;
            d.success = tx(b).success;
        },
        children: [
            {
                checks: [isTx, hasOp(OP.subscriptionDeploy)],
                build: (d, b, ctx) => {
                    const t = tx(b);
                    const subscriber = d.subscriber;
                    describe(d, t.account, ctx);
                    d.subscriber = subscriber;
                    d.success &&= t.success;
                    // More than the deploy itself: the plugin requested its first payment.
                    if (b.children.length > 1) d.amount = ctx.facts.subscriptions?.get(t.account)?.amount ?? 0n;
                },
                children: [{ checks: [isAction('ContractDeploy')] }],
            },
            { checks: [isAction('AddExtension')] },
        ],
    },
};

/** A payment arriving at the plugin (payment_confirmed#f06c7567), forwarded to the beneficiary. */
export const SubscriptionPayment: Pattern<SubscribeDraft> = {
    name: 'SubscriptionPayment',
    create: newSubscribe,
    root: {
        checks: [isTx, hasOp(OP.subscriptionPaymentConfirmed), hasValue, isSubscription],
        build: (d, b, ctx) => {
            const t = tx(b);
            describe(d, t.account, ctx);
            d.subscriber = t.inputFrom ?? d.subscriber;
            d.amount = t.inputAmount;
            d.success = t.success;
        },
        singleChild: { checks: [isTx], optional: true },
    },
};

/** An unsubscription under construction: besides the action, the extension the wallet removed (once its step ran). */
type UnSubscribeInProgress = UnSubscribeDraft & { removedExtension: string | undefined };

function newUnsubscribeInProgress(): UnSubscribeInProgress {
    return { ...newUnsubscribe(), removedExtension: undefined };
}

function finishUnsubscribe({ removedExtension: _, ...action }: UnSubscribeInProgress): UnSubscribeDraft {
    return action;
}

/** The wallet must have removed this very plugin; builders run in any order, so both sides check. */
function checkRemoval(d: UnSubscribeInProgress): void {
    const removed = d.removedExtension;
    if (removed !== undefined && d.subscription !== UNKNOWN_ADDRESS && removed !== d.subscription) d.success = false;
}

function removesExtension(d: UnSubscribeInProgress, b: Bubble): void {
    const removal = actionOf(b, 'RemoveExtension')!;
    d.removedExtension = removal.extension;
    d.success &&= removal.success;
    checkRemoval(d);
}

/** The wallet removes the plugin (v4 op 3), which destructs itself (0x64737472). */
export const UnSubscriptionBySubscriber: Pattern<UnSubscribeDraft, UnSubscribeInProgress> = {
    name: 'UnSubscriptionBySubscriber',
    create: newUnsubscribeInProgress,
    finish: finishUnsubscribe,
    root: {
        checks: [isTx, hasInterface('wallet')],
        build: (d, b) => {
            d.subscriber = tx(b).account;
            d.success = tx(b).success;
        },
        children: [
            {
                checks: [isTx, hasOp(OP.pluginDestruct)],
                build: (d, b, ctx) => {
                    const subscriber = d.subscriber;
                    describe(d, tx(b).account, ctx);
                    d.subscriber = subscriber;
                    d.success &&= tx(b).success;
                    checkRemoval(d);
                },
                singleChild: { checks: [isTx], optional: true },
            },
            { checks: [isAction('RemoveExtension')], build: removesExtension },
        ],
    },
};

/** The plugin ends the subscription (beneficiary's request or expiry) and tells the wallet to forget it. */
export const UnSubscriptionByBeneficiary: Pattern<UnSubscribeDraft, UnSubscribeInProgress> = {
    name: 'UnSubscriptionByBeneficiary',
    create: newUnsubscribeInProgress,
    finish: finishUnsubscribe,
    root: {
        checks: [isTx, isSubscription, txWhere((t) => t.external || t.opCode === OP.pluginDestruct)],
        build: (d, b, ctx) => {
            describe(d, tx(b).account, ctx);
            d.success = tx(b).success;
            checkRemoval(d);
        },
        singleChild: {
            checks: [isTx, hasOp(OP.pluginDestruct), hasInterface('wallet')],
            build: (d, b) => {
                d.subscriber = tx(b).account;
            },
            children: [{ checks: [isAction('RemoveExtension')], build: removesExtension }],
        },
    },
};
