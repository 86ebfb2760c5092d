import type { PreviewLanguage } from './language.ts';

/**
 * Preview descriptions in English and Russian; `{name}` placeholders are filled by `translate`.
 * A message missing in Russian falls back to English.
 */
const MESSAGES = {
    nativeTransfer: { en: 'Transferring {value}', ru: 'Перевод {value}' },
    extraCurrencyTransfer: { en: 'Transferring {value}', ru: 'Перевод {value}' },
    nftTransfer: { en: 'Transferring 1 NFT', ru: 'Перевод NFT' },
    jettonTransfer: { en: 'Transferring {value}', ru: 'Перевод {value}' },
    flawedJettonTransfer: { en: 'Transferred {sent}, but received {received}', ru: 'Отправлено {sent}, но получено {received}' },
    jettonMint: { en: 'Minting {value}', ru: 'Минтинг {value}' },
    jettonBurn: { en: 'Burning {value}', ru: 'Сжигание {value}' },
    contractDeploy: { en: 'Deploying a contract', ru: 'Развёртывание контракта' },
    contractDeployWithInterfaces: { en: 'Deploying a contract with interfaces {interfaces}', ru: 'Развёртывание контракта с интерфейсами {interfaces}' },
    nftPurchase: { en: 'Purchase {name}', ru: 'Покупка {name}' },
    auctionBid: { en: 'Bidding {amount} for {name}', ru: 'Ставка {amount} за {name}' },
    depositStake: { en: 'Deposit {value} to staking pool', ru: 'Депозит {value} в пул стейкинга' },
    withdrawStakeRequest: { en: 'Request to withdraw {value} from staking pool.', ru: 'Запрос на вывод {value} из пула стейкинга.' },
    withdrawStakeRequestAll: { en: 'Request to withdraw all from staking pool.', ru: 'Запрос на вывод всех средств из пула стейкинга.' },
    withdrawStake: { en: 'Withdraw {value} from staking pool', ru: 'Вывод {value} из пула стейкинга' },
    electionsDepositStake: { en: 'Depositing {amount} for stake', ru: 'Внесение {amount} в стейк' },
    electionsRecoverStake: { en: 'Recover {amount} stake', ru: 'Возврат стейка {amount}' },
    jettonSwap: { en: 'Swapping {in} for {out}', ru: 'Обмен {in} на {out}' },
    liquidityDeposit: { en: 'Depositing {value} to {protocol} liquidity pool', ru: 'Депозит {value} в пул ликвидности {protocol}' },
    smartContractExec: { en: 'Execution of smart contract', ru: 'Выполнение смарт-контракта' },
    domainRenew: { en: 'Update {domain} expiring time', ru: 'Продление срока действия {domain}' },
    purchase: { en: 'Payment for invoice #{invoice}', ru: 'Оплата счёта #{invoice}' },
    subscriptionCharge: { en: 'Paying {value} for subscription', ru: 'Оплата подписки: {value}' },
    subscriptionDelayed: { en: 'Subscription initiated with a delayed payment', ru: 'Подписка оформлена с отложенным платежом' },
    unsubscribe: { en: 'Subscription deactivated', ru: 'Подписка отключена' },
    addExtension: { en: 'Add extension to wallet', ru: 'Добавление расширения в кошелёк' },
    removeExtension: { en: 'Remove extension from wallet', ru: 'Удаление расширения из кошелька' },
    enableSignature: { en: 'Enable wallet signature', ru: 'Включение подписи кошелька' },
    disableSignature: { en: 'Disable wallet signature', ru: 'Отключение подписи кошелька' },
    gasRelay: { en: 'Relay for gas', ru: 'Оплата газа через ретранслятор' },
    withdrawXtr: { en: 'Withdrawing {value}', ru: 'Вывод {value}' },
    depositXtr: { en: 'Depositing {value}', ru: 'Пополнение {value}' },
    buyXtr: { en: 'Buying {value}', ru: 'Покупка {value}' },
    depositTokenStake: { en: 'Staking {value} in {protocol}', ru: 'Стейкинг {value} в {protocol}' },
    depositTokenStakeNoValue: { en: 'Staking in {protocol}', ru: 'Стейкинг в {protocol}' },
    withdrawTokenStakeRequest: { en: 'Request to withdraw {value} from {protocol}', ru: 'Запрос на вывод {value} из {protocol}' },
    withdrawTokenStakeRequestNoValue: { en: 'Request to withdraw from {protocol}', ru: 'Запрос на вывод из {protocol}' },
    oracleRequest: { en: 'Requesting {feeds} prices from the oracle', ru: 'Запрос цен {feeds} у оракула' },
    oracleRequestNoFeeds: { en: 'Requesting prices from the oracle', ru: 'Запрос цен у оракула' },
    unknown: { en: "Something happened but we don't understand what.", ru: 'Что-то произошло, но мы не понимаем, что именно.' },
} satisfies Record<string, { en: string; ru?: string }>;

export type MessageId = keyof typeof MESSAGES;

export function translate(id: MessageId, language: PreviewLanguage, values: Record<string, string> = {}): string {
    const entry: { en: string; ru?: string } = MESSAGES[id];
    const template = (language === 'ru' ? entry.ru : undefined) ?? entry.en;
    return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
