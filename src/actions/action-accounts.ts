import type { ActionDraft } from './action.ts';

/** Accounts an action is about, as the subject filter sees them (subject accounts of the reference's table). */
export function subjectAccounts(a: ActionDraft): string[] {
    const list = (...xs: Array<string | undefined>) => xs.filter((x): x is string => x !== undefined);
    switch (a.type) {
        case 'NativeTransfer':
        case 'ExtraCurrencyTransfer':
            return list(a.sender, a.recipient);
        case 'SmartContractExec':
            return list(a.contract, a.executor);
        case 'NftItemTransfer':
        case 'JettonTransfer':
        case 'FlawedJettonTransfer':
            return list(a.sender, a.recipient);
        case 'NftPurchase':
            return list(a.buyer, a.seller);
        case 'AuctionBid':
            return list(a.bidder);
        case 'ContractDeploy':
            return list(a.address);
        case 'JettonSwap':
            return list(a.userWallet);
        case 'LiquidityDeposit':
            return list(a.from, ...a.tokens.map((t) => t.vault));
        case 'Subscribe':
        case 'UnSubscribe':
            return list(a.subscriber, a.admin);
        case 'DepositStake':
        case 'WithdrawStake':
        case 'WithdrawStakeRequest':
            return list(a.staker, a.pool);
        case 'ElectionsDepositStake':
        case 'ElectionsRecoverStake':
            return list(a.staker);
        case 'JettonBurn':
            return list(a.sender);
        case 'JettonMint':
            return list(a.recipient);
        case 'DomainRenew':
            return list(a.renewer, a.contractAddress);
        case 'Purchase':
            return list(a.source, a.destination);
        case 'AddExtension':
        case 'RemoveExtension':
        case 'SetSignatureAllowedAction':
            return list(a.wallet);
        case 'GasRelay':
            return list(a.relayer, a.target);
        case 'WithdrawXTR':
            return list(a.user);
        case 'DepositXTR':
        case 'BuyXTR':
            return list(a.recipient);
        case 'DepositTokenStake':
        case 'WithdrawTokenStakeRequest':
            return list(a.staker);
        case 'OracleRequest':
            return list(a.requester);
    }
}

/** Every account an action names: joins the accounts of its bubble for the account filter. */
export function actionAccounts(a: ActionDraft): string[] {
    const extra: Array<string | undefined> = [];
    switch (a.type) {
        case 'JettonSwap':
            extra.push(a.router);
            break;
        case 'Subscribe':
        case 'UnSubscribe':
            extra.push(a.beneficiary, a.subscription);
            break;
        case 'AuctionBid':
            extra.push(a.auction);
            break;
        case 'ElectionsDepositStake':
        case 'ElectionsRecoverStake':
            extra.push(a.elector);
            break;
        case 'OracleRequest':
            extra.push(a.oracle, a.responseTo);
            break;
    }
    return [...subjectAccounts(a), ...extra.filter((x): x is string => x !== undefined)];
}
