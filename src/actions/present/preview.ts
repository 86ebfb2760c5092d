import type { ActionDraft } from '../action.ts';
import { formatAsset, formatJettons, jettonPreviewJson } from './assets.ts';
import type { AccountAddressJson, PresentContext } from './context.ts';
import { formatGrams, formatTokens } from './format-tokens.ts';
import { translate, type MessageId } from './i18n.ts';
import { oracleRequestPreview, tokenStakePreview, type PreviewParts } from './token-staking.ts';
import { liquidityDepositValue } from './liquidity.ts';

export interface SimplePreviewJson {
    name: string;
    description: string;
    accounts: AccountAddressJson[];
    value?: string;
    value_image?: string;
}

/** simple_preview of an action: a fixed name, a localised description, the formatted value, the other accounts. */
export function simplePreview(a: ActionDraft, ctx: PresentContext): SimplePreviewJson {
    const t = (id: MessageId, values?: Record<string, string>) => translate(id, ctx.language, values);
    const facts = ctx.facts;
    let name: string;
    let description: string;
    let value: string | undefined;
    let valueImage: string | undefined;
    let accounts: Array<string | undefined>;
    switch (a.type) {
        case 'NativeTransfer':
            name = 'Gram Transfer';
            value = formatGrams(a.amount);
            description = t('nativeTransfer', { value });
            accounts = [a.sender, a.recipient];
            break;
        case 'ExtraCurrencyTransfer': {
            name = 'Extra Currency Transfer';
            // Decimals as the preview states them (9 for a currency the table does not list); the symbol, or #id.
            const currency = ctx.currencies.preview(a.currencyId);
            value = formatTokens(a.amount, currency.decimals, ctx.currencies.label(a.currencyId));
            description = t('extraCurrencyTransfer', { value });
            valueImage = currency.image;
            accounts = [a.sender, a.recipient];
            break;
        }
        case 'NftItemTransfer':
            name = 'NFT Transfer';
            value = '1 NFT';
            description = t('nftTransfer');
            accounts = [a.recipient, a.sender, a.nft];
            break;
        case 'JettonTransfer': {
            name = 'Jetton Transfer';
            value = formatJettons(facts, a.master, a.amount);
            description = t('jettonTransfer', { value });
            valueImage = jettonPreviewJson(facts, a.master).image;
            accounts = [a.recipient, a.sender, a.master];
            break;
        }
        case 'FlawedJettonTransfer':
            name = 'Jetton Transfer';
            value = formatJettons(facts, a.master, a.receivedAmount);
            description = t('flawedJettonTransfer', { sent: formatJettons(facts, a.master, a.sentAmount), received: value });
            valueImage = jettonPreviewJson(facts, a.master).image;
            accounts = [a.recipient, a.sender, a.master];
            break;
        case 'JettonMint':
            name = 'Jetton Mint';
            value = formatJettons(facts, a.master, a.amount);
            description = t('jettonMint', { value });
            valueImage = jettonPreviewJson(facts, a.master).image;
            accounts = [a.recipient, a.master];
            break;
        case 'JettonBurn':
            name = 'Jetton Burn';
            value = formatJettons(facts, a.master, a.amount);
            description = t('jettonBurn', { value });
            valueImage = jettonPreviewJson(facts, a.master).image;
            accounts = [a.sender, a.master];
            break;
        case 'ContractDeploy':
            name = 'Contract Deploy';
            description = a.interfaces.length > 0 ? t('contractDeployWithInterfaces', { interfaces: a.interfaces.join(', ') }) : t('contractDeploy');
            accounts = [a.address];
            break;
        case 'NftPurchase':
            name = 'NFT Purchase';
            value = formatGrams(a.amount);
            description = t('nftPurchase', { name: 'NFT' });
            accounts = [a.nft, a.buyer];
            break;
        case 'AuctionBid':
            name = 'Auction bid';
            value = formatGrams(a.amount);
            description = t('auctionBid', { amount: value, name: 'NFT' });
            accounts = [a.bidder, a.auction];
            break;
        case 'DepositStake':
            name = 'Deposit Stake';
            value = a.stakeMeta ? formatAsset(facts, a.stakeMeta) : formatGrams(a.amount);
            description = t('depositStake', { value });
            accounts = [a.staker, a.pool];
            break;
        case 'WithdrawStakeRequest':
            name = 'Withdraw Stake Request';
            if (a.stakeMeta) value = formatAsset(facts, a.stakeMeta);
            else if (a.amount !== undefined) value = formatGrams(a.amount);
            description = value === undefined ? t('withdrawStakeRequestAll') : t('withdrawStakeRequest', { value });
            value ??= 'ALL';
            accounts = [a.staker, a.pool];
            break;
        case 'WithdrawStake':
            name = 'Withdraw Stake';
            value = formatGrams(a.amount);
            description = t('withdrawStake', { value });
            accounts = [a.staker, a.pool];
            break;
        case 'ElectionsDepositStake':
        case 'ElectionsRecoverStake': {
            const deposit = a.type === 'ElectionsDepositStake';
            name = deposit ? 'Deposit Stake' : 'Recover Stake';
            const amount = formatGrams(a.amount);
            description = t(deposit ? 'electionsDepositStake' : 'electionsRecoverStake', { amount });
            // Signed from the viewer's side: the staker pays a deposit and gets a recovery back.
            const outgoing = deposit ? ctx.viewer === a.staker : ctx.viewer === a.elector;
            const incoming = deposit ? ctx.viewer === a.elector : ctx.viewer === a.staker;
            value = outgoing ? `-${amount}` : incoming ? `+${amount}` : amount;
            accounts = [a.elector, a.staker];
            break;
        }
        case 'JettonSwap':
            name = 'Swap Tokens';
            description = t('jettonSwap', { in: formatAsset(facts, a.in), out: formatAsset(facts, a.out) });
            accounts = [a.userWallet, a.router];
            break;
        case 'LiquidityDeposit':
            name = 'Liquidity Deposit';
            value = liquidityDepositValue(a, ctx);
            description = t('liquidityDeposit', { value, protocol: a.protocol.name });
            accounts = [a.from, ...a.tokens.map((token) => token.vault)];
            break;
        case 'SmartContractExec':
            name = 'Smart Contract Execution';
            description = t('smartContractExec');
            accounts = [a.executor, a.contract];
            break;
        case 'DomainRenew':
            name = 'Domain Renew';
            value = a.domain || 'unknown';
            description = t('domainRenew', { domain: value });
            accounts = [a.renewer, a.contractAddress];
            break;
        case 'Purchase':
            name = 'Purchase';
            value = formatAsset(facts, a.amount);
            description = t('purchase', { invoice: a.invoiceId });
            accounts = [a.source, a.destination];
            break;
        case 'Subscribe':
            name = a.amount === 0n ? 'Subscribed' : 'Subscription Charge';
            value = formatGrams(a.amount);
            description = a.amount === 0n ? t('subscriptionDelayed') : t('subscriptionCharge', { value });
            accounts = [a.admin, a.subscriber, a.beneficiary];
            break;
        case 'UnSubscribe':
            name = 'Unsubscribed';
            description = t('unsubscribe');
            accounts = [a.admin, a.subscriber, a.beneficiary];
            break;
        case 'AddExtension':
            name = 'AddExtension';
            description = t('addExtension');
            accounts = [a.wallet];
            break;
        case 'RemoveExtension':
            name = 'RemoveExtension';
            description = t('removeExtension');
            accounts = [a.wallet];
            break;
        case 'SetSignatureAllowedAction':
            name = 'SetSignatureAllowed';
            description = t(a.allowed ? 'enableSignature' : 'disableSignature');
            accounts = [a.wallet];
            break;
        case 'GasRelay':
            name = 'Gas Relay';
            value = formatGrams(a.amount);
            description = t('gasRelay');
            accounts = [a.relayer, a.target];
            break;
        case 'WithdrawXTR':
            name = 'Withdraw XTR';
            value = `${a.amount} XTR`;
            description = t('withdrawXtr', { value });
            accounts = [a.user];
            break;
        case 'DepositXTR':
            name = 'Deposit XTR';
            value = `${a.amount} XTR`;
            description = t('depositXtr', { value });
            accounts = [a.recipient];
            break;
        case 'BuyXTR':
            name = 'Buy XTR';
            value = `${a.amount} XTR`;
            description = t('buyXtr', { value });
            accounts = [a.recipient];
            break;
        case 'DepositTokenStake':
        case 'WithdrawTokenStakeRequest':
        case 'OracleRequest': {
            const parts: PreviewParts = a.type === 'OracleRequest' ? oracleRequestPreview(a, ctx) : tokenStakePreview(a, ctx);
            ({ name, description, value, valueImage, accounts } = parts);
            break;
        }
    }
    const preview: SimplePreviewJson = { name, description, accounts: previewAccounts(accounts, ctx) };
    if (value !== undefined) preview.value = value;
    if (valueImage) preview.value_image = valueImage;
    return preview;
}

/** Distinct accounts (by address), the viewer left out. */
function previewAccounts(raw: Array<string | undefined>, ctx: PresentContext): AccountAddressJson[] {
    const seen = new Set<string>();
    const out: AccountAddressJson[] = [];
    for (const a of raw) {
        if (a === undefined || a === ctx.viewer || seen.has(a)) continue;
        seen.add(a);
        out.push(ctx.accounts(a));
    }
    return out;
}

export function unknownPreview(ctx: PresentContext, account: string): SimplePreviewJson {
    return { name: 'Unknown', description: translate('unknown', ctx.language), accounts: [ctx.accounts(account)] };
}
