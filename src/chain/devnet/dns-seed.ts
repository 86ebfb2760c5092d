import { internal, type Address } from '@ton/core';
import {
    DNS_TON, dnsCollectionAddress, dnsCollectionStateInit, dnsItemAddress, registerDomainBody, renewDomainBody, type DnsCollectionConfig,
} from './contracts/dns.ts';
import { onchainContent } from './contracts/metadata.ts';
import type { TokenStep } from './token-seed.ts';
import type { DevnetWallet } from './wallets.ts';

/** The devnet's .ton-style DNS: the faucet is the registrar; alice holds alice.ton and renews it. */
export interface DevnetDns {
    collection: { config: DnsCollectionConfig; address: Address };
    /** The domain the seed registers, without ".ton", and its owner's wallet name. */
    domain: { name: string; owner: string; item: Address };
}

export const DEVNET_DOMAIN = { name: 'alice', owner: 'alice-v3r2' } as const;

export function devnetDns(wallets: Map<string, DevnetWallet>): DevnetDns {
    const config: DnsCollectionConfig = {
        owner: wallets.get('faucet')!.address,
        collectionContent: onchainContent({ name: 'Devnet .ton DNS', description: 'Domains of the devnet, assigned by its registrar' }),
    };
    const address = dnsCollectionAddress(config);
    return { collection: { config, address }, domain: { ...DEVNET_DOMAIN, item: dnsItemAddress(address, DEVNET_DOMAIN.name) } };
}

type DnsStep = Omit<TokenStep, 'messages'> & { messages: (w: Map<string, DevnetWallet>, d: DevnetDns) => ReturnType<TokenStep['messages']> };

export const DNS_STEPS: DnsStep[] = [
    {
        label: 'registrar assigns alice.ton to alice',
        from: 'faucet',
        messages: (w, d) => [internal({
            to: d.collection.address, value: DNS_TON.registerAmount + DNS_TON.registerOverhead, bounce: false,
            init: dnsCollectionStateInit(d.collection.config),
            body: registerDomainBody({ queryId: 13n, domain: d.domain.name, owner: w.get(d.domain.owner)!.address }),
        })],
    },
    {
        label: 'alice renews alice.ton',
        from: DEVNET_DOMAIN.owner,
        messages: (_w, d) => [internal({ to: d.domain.item, value: DNS_TON.changeRecord, bounce: true, body: renewDomainBody(14n) })],
    },
];
