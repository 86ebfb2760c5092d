import { connect } from 'node:net';

export interface HttpResult {
    status: number;
    headers: Headers;
    text: string;
    body: any;
}

/** A real HTTP request on loopback; the body is parsed as JSON when it is JSON. */
export async function request(url: string, init: RequestInit & { json?: unknown } = {}): Promise<HttpResult> {
    const { json, ...rest } = init;
    const response = await fetch(url, {
        ...rest,
        headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...(rest.headers ?? {}) },
        body: json !== undefined ? (typeof json === 'string' ? json : JSON.stringify(json)) : rest.body,
    });
    const text = await response.text();
    let body: unknown = undefined;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
    return { status: response.status, headers: response.headers, text, body };
}

/** Whether a new TCP connection to the port on 127.0.0.1 is refused (a server that stopped listening). */
export function connectionRefused(port: number): Promise<boolean> {
    return new Promise(resolve => {
        const socket = connect({ host: '127.0.0.1', port });
        socket.once('connect', () => {
            socket.destroy();
            resolve(false);
        });
        socket.once('error', error => resolve((error as NodeJS.ErrnoException).code === 'ECONNREFUSED'));
    });
}
