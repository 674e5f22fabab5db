import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

type FilePart = { name: string; content: string | Uint8Array<ArrayBuffer>; type?: string };

/** A multipart upload with the platform's FormData (the boundary and part headers a browser would send). */
async function upload(t: TestApp, path: string, headers: Record<string, string>, files: FilePart[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.content], { type: f.type ?? 'application/octet-stream' }), f.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers, body: form });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const GUIDE_MD = `# Returns

You can return any item within 30 days of delivery.

## Refunds

Refunds reach your card within 5 business days after we receive the parcel.

## Exchanges

Exchanges ship free of charge.
`;

const SHIPPING_HTML = `<!doctype html><html><head><title>Shipping</title><script>track()</script></head>
<body><h1>Shipping</h1><p>Orders over &euro;50 ship for free.</p><h2>Express</h2><p>Express delivery takes one working day.</p></body></html>`;

describe('knowledge upload (POST/GET/DELETE …/versions/{versionId}/knowledge)', () => {
  let t: TestApp;
  let org: TestOrg;
  let agentId: string;
  let versionId: string;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Knowledge' }, org.headers), 201, 'project').body;
    agentId = expectStatus(
      await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Help desk', runtime: 'v2' }, org.headers),
      201,
      'agent',
    ).body.id;
    versionId = expectStatus(
      await t.http.post(`/management/v1/agents/${agentId}/versions`, { source: 'empty' }, org.headers),
      201,
      'version',
    ).body.id;
    base = `/management/v1/agents/${agentId}/versions/${versionId}/knowledge`;
  });

  const pull = async () => (await t.http.get(`/management/v1/agents/${agentId}/versions/${versionId}/pull`, org.headers)).body;

  it('splits Markdown, HTML and text files into documents by heading and commits them as one revision, like a push', async () => {
    const res = await upload(t, base, org.headers, [
      { name: 'Returns Guide.md', content: GUIDE_MD, type: 'text/markdown' },
      { name: 'shipping.html', content: SHIPPING_HTML, type: 'text/html' },
      { name: 'hours.txt', content: 'We are open 9 to 5.\n\nClosed on Sundays.', type: 'text/plain' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version_id: versionId, version_tag: expect.stringMatching(/^v1\.1$/), replaced: [] });
    expect(res.body.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(res.body.documents.map((d: { id: string; title: string }) => [d.id, d.title])).toEqual([
      ['returns-guide.md:returns', 'Returns'],
      ['returns-guide.md:refunds', 'Returns › Refunds'],
      ['returns-guide.md:exchanges', 'Returns › Exchanges'],
      ['shipping.html:shipping', 'Shipping'],
      ['shipping.html:express', 'Shipping › Express'],
      ['hours.txt', 'hours'],
    ]);

    // the revision is a real one: pull shows the bundle, its digest is the push rule's, and the versions list has it
    const pulled = await pull();
    expect(pulled.version_tag).toBe('v1.1');
    const knowledge = pulled.bundle.knowledge as Array<{ id: string; text: string }>;
    expect(knowledge.find((d) => d.id === 'shipping.html:shipping')!.text).toBe('Orders over €50 ship for free.');
    expect(knowledge.find((d) => d.id === 'hours.txt')!.text).toBe('We are open 9 to 5.\n\nClosed on Sundays.');
    expect(JSON.stringify(knowledge)).not.toContain('track()');
    const pushedAgain = await t.http.post(
      `/management/v1/agents/${agentId}/versions/${versionId}/push`,
      { bundle: pulled.bundle },
      org.headers,
    );
    expect(pushedAgain.body).toMatchObject({ version_tag: 'v1.1', digest: res.body.digest });

    const list = await t.http.get(base, org.headers);
    expect(list.status).toBe(200);
    expect(list.body.version_tag).toBe('v1.1');
    expect(list.body.results[1]).toEqual({
      id: 'returns-guide.md:refunds',
      title: 'Returns › Refunds',
      url: null,
      characters: 'Refunds reach your card within 5 business days after we receive the parcel.'.length,
    });
  });

  it('replaces the documents of an earlier upload of the same file, keeps the others, and a same upload commits nothing', async () => {
    await upload(t, base, org.headers, [
      { name: 'guide.md', content: GUIDE_MD },
      { name: 'hours.txt', content: 'Open 9 to 5.' },
    ]);
    const again = await upload(t, base, org.headers, [{ name: 'guide.md', content: '# Returns\n\nReturns within 60 days now.' }], {
      message: 'Policy update',
    });
    expect(again.status).toBe(200);
    expect(again.body.version_tag).toBe('v1.2');
    expect(again.body.replaced).toEqual(['guide.md:returns', 'guide.md:refunds', 'guide.md:exchanges']);
    const ids = (await t.http.get(base, org.headers)).body.results.map((d: { id: string }) => d.id);
    expect(ids).toEqual(['hours.txt', 'guide.md:returns']);
    const versions = await t.http.get(`/management/v1/agents/${agentId}/versions?filters[version_tag]=v1.2`, org.headers);
    expect(versions.body.results[0].message).toBe('Policy update');

    const same = await upload(t, base, org.headers, [{ name: 'guide.md', content: '# Returns\n\nReturns within 60 days now.' }]);
    expect(same.body.version_tag).toBe('v1.2');
  });

  it('removes one document as a new revision; an unknown document is 404 and commits nothing', async () => {
    await upload(t, base, org.headers, [{ name: 'guide.md', content: GUIDE_MD }]);
    const removed = await t.http.delete(`${base}/${encodeURIComponent('guide.md:refunds')}`, org.headers);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ version_id: versionId, version_tag: 'v1.2' });
    expect((await t.http.get(base, org.headers)).body.results.map((d: { id: string }) => d.id)).toEqual([
      'guide.md:returns',
      'guide.md:exchanges',
    ]);
    const missing = await t.http.delete(`${base}/guide.md:refunds`, org.headers);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect((await pull()).version_tag).toBe('v1.2');
  });

  it('refuses bad files with 422 naming each one, and changes nothing', async () => {
    await upload(t, base, org.headers, [{ name: 'guide.md', content: GUIDE_MD }]);
    const res = await upload(t, base, org.headers, [
      { name: 'ok.md', content: '# Fine\n\nfine' },
      { name: 'manual.pdf', content: '%PDF-1.7', type: 'application/pdf' },
      { name: 'empty.txt', content: '  \n' },
      { name: 'latin1.txt', content: new Uint8Array([0x63, 0x61, 0x66, 0xe9]) },
      { name: 'nul.md', content: 'a\u0000b' },
      { name: 'only-script.html', content: '<script>x()</script>' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.body.error.details).toEqual([
      { field: 'files["manual.pdf"]', message: expect.stringContaining('is not Markdown') },
      { field: 'files["empty.txt"]', message: 'empty.txt is empty' },
      { field: 'files["latin1.txt"]', message: 'latin1.txt is not valid UTF-8' },
      { field: 'files["nul.md"]', message: 'nul.md contains NUL characters' },
      { field: 'files["only-script.html"]', message: 'only-script.html has no text' },
    ]);
    expect((await pull()).version_tag).toBe('v1.1');

    const big = await upload(t, base, org.headers, [{ name: 'big.txt', content: 'x'.repeat(2 * 1024 * 1024 + 1) }]);
    expect(big.status).toBe(422);
    expect(big.body.error.details).toEqual([{ field: 'files["big.txt"]', message: expect.stringContaining('larger than 2097152 bytes') }]);

    const many = await upload(
      t,
      base,
      org.headers,
      Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, content: `file ${i}` })),
    );
    expect(many.status).toBe(422);
    expect(many.body.error.details[0].field).toBe('files');

    const none = await upload(t, base, org.headers, [], { message: 'nothing' });
    expect(none.status).toBe(422);
    expect(none.body.error.details).toEqual([{ field: 'files', message: expect.any(String) }]);

    const stray = await upload(t, base, org.headers, [{ name: 'a.md', content: '# A\n\na' }], { extra: 'x' });
    expect(stray.status).toBe(422);
    expect(stray.body.error.details[0].field).toBe('extra');
    expect((await pull()).version_tag).toBe('v1.1');
  });

  it('takes multipart on this route only: JSON here is 415, multipart elsewhere is 415', async () => {
    const json = await t.http.post(base, { files: [] }, org.headers);
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');
    const form = new FormData();
    form.append('bundle', '{}');
    const elsewhere = await fetch(`${t.baseUrl}/management/v1/agents/${agentId}/versions/${versionId}/push`, {
      method: 'POST',
      headers: org.headers,
      body: form,
    });
    expect(elsewhere.status).toBe(415);
  });

  it('answers 401 without credentials, 404 for another tenant’s ids, 422 for malformed ids, 409 on an archived version', async () => {
    const file = [{ name: 'a.md', content: '# A\n\na' }];
    expect((await upload(t, base, {}, file)).status).toBe(401);
    expect((await upload(t, base, { 'x-organization-api-key': 'oak_wrong' }, file)).status).toBe(401);
    expect((await t.http.get(base)).status).toBe(401);
    expect((await t.http.delete(`${base}/a.md`)).status).toBe(401);

    const other = await t.factory.org();
    const foreign = await upload(t, base, other.headers, file);
    expect(foreign.status).toBe(404);
    expect((await t.http.get(base, other.headers)).status).toBe(404);
    expect((await t.http.delete(`${base}/a.md`, other.headers)).status).toBe(404);
    expect((await pull()).version_tag).toBe('v1.0');

    const bad = await upload(t, `/management/v1/agents/${agentId}/versions/nothex/knowledge`, org.headers, file);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'versionId' })]);

    // a published version takes uploads as it takes pushes (the revision goes live at the next publish) …
    const live = await liveAgent(t, org, { runtime: 'v2', bundle: { schema_version: 1, name: 'Live' } });
    const liveBase = `/management/v1/agents/${live.agentId}/versions/${live.versionId}/knowledge`;
    expect((await upload(t, liveBase, org.headers, file)).body.version_tag).toBe('v1.2');
    // … an archived one refuses them as push does
    const second = expectStatus(await t.http.post(`/management/v1/agents/${agentId}/versions`, { source: 'empty' }, org.headers), 201, 'v2')
      .body.id;
    expectStatus(await t.http.post(`/management/v1/agents/${agentId}/versions/${second}/archive`, undefined, org.headers), 200, 'archive');
    const archived = await upload(t, `/management/v1/agents/${agentId}/versions/${second}/knowledge`, org.headers, file);
    expect(archived.status).toBe(409);
    expect(archived.body.error.code).toBe('version_archived');
  });
});
