/** A small real-HTTP client over Node's fetch: status, headers and the parsed JSON body. */
export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface HttpOptions {
  headers?: Record<string, string>;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  /** Sent as is (with whatever content-type the headers say). */
  raw?: string;
}

export class HttpClient {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, options: HttpOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { body, headers });
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, { body, headers });
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, { headers });
  }
}
