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
