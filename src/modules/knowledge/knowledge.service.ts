import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../common/errors/app-error.js';
import type { Principal } from '../auth/principal.js';
import type { Bundle, KnowledgeDocument } from '../bundles/bundle.types.js';
import type { PushResponseDto } from '../versions/dto/version-response.dto.js';
import { VersionsService } from '../versions/versions.service.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import { bundleDigest } from '../bundles/bundle-digest.js';
import type {
  KnowledgeDocumentItemDto,
  KnowledgeListDto,
  KnowledgeSearchResponseDto,
  KnowledgeUploadResponseDto,
} from './dto/knowledge.dto.js';
import { decodeText, documentsOf, fileKind, fileSlug, madeFromFile, UPLOAD_LIMITS, type SplitDocument } from './knowledge-files.js';
import { fileField, type Upload } from './knowledge-upload.reader.js';

/** The bundle's own limit on `knowledge` (bundle.schema.ts). */
const MAX_BUNDLE_DOCUMENTS = 2000;

/**
 * The knowledge of a version as documents: upload files (each a new revision, committed like a push), list them,
 * remove one. The bundle stays the one source of truth: these operations only edit its `knowledge`.
 */
@Injectable()
export class KnowledgeService {
  constructor(
    private readonly versions: VersionsService,
    private readonly runtime: RuntimeService,
  ) {}

  /**
   * Checks the version is the caller's (404 first, before the body is read), reads and converts every file (any bad
   * file: 422 naming it, nothing committed), then commits: each file's documents replace those of an earlier upload of
   * the same file name and the rest are appended.
   */
  async upload(who: Principal, agentId: string, versionId: string, read: () => Promise<Upload>): Promise<KnowledgeUploadResponseDto> {
    await this.versions.get(who, agentId, versionId);
    const upload = await read();
    const converted = convert(upload);
    let replaced: string[] = [];
    const pushed = await this.versions.pushChange(
      who,
      agentId,
      versionId,
      (bundle) => {
        const prefixes = converted.map((c) => c.prefix);
        const kept = (bundle.knowledge ?? []).filter((d) => !prefixes.some((p) => madeFromFile(d.id, p)));
        replaced = (bundle.knowledge ?? []).filter((d) => !kept.includes(d)).map((d) => d.id);
        const added = converted.flatMap((c) => c.documents);
        if (kept.length + added.length > MAX_BUNDLE_DOCUMENTS) {
          throw ValidationError.field(
            'files',
            `the version would hold ${kept.length + added.length} documents; a bundle holds at most ${MAX_BUNDLE_DOCUMENTS}`,
          );
        }
        return { ...bundle, knowledge: [...kept, ...added] };
      },
      upload.message ?? `Uploaded ${upload.files.map((f) => f.filename).join(', ')}`.slice(0, UPLOAD_LIMITS.messageChars),
    );
    return { ...pushed, documents: converted.flatMap((c) => c.documents.map(item)), replaced };
  }

  async list(who: Principal, agentId: string, versionId: string): Promise<KnowledgeListDto> {
    const pulled = await this.versions.pull(who, agentId, versionId, undefined);
    return {
      version_id: pulled.version_id,
      version_tag: pulled.version_tag,
      results: ((pulled.bundle as Bundle).knowledge ?? []).map(item),
    };
  }

  /**
   * What the version's current revision would answer a question from, without a turn (the console's "try a
   * question"): the grounded engine's retrieval and its answer-or-decline decision. Nothing is recorded, no model
   * writes anything; a bundle with an embeddings model ranks with it as a turn would.
   */
  async search(who: Principal, agentId: string, versionId: string, query: string): Promise<KnowledgeSearchResponseDto> {
    const pulled = await this.versions.pull(who, agentId, versionId, undefined);
    const bundle = pulled.bundle as Bundle;
    const prepared = this.runtime.prepare({ digest: bundleDigest(bundle), runtime: 'v2', bundle });
    const trace = await this.runtime.retrieval(prepared, query);
    const titles = new Map(trace.sources_read.map((s) => [s.document_id, s.title]));
    const answerable = trace.checks.find((c) => c.name === 'answerable')?.passed ?? false;
    return {
      version_id: pulled.version_id,
      version_tag: pulled.version_tag,
      answerable: answerable && trace.passages_used.length > 0,
      results: trace.passages_used.map((p, i) => ({
        rank: i + 1,
        passage_id: p.passage_id,
        document_id: p.document_id,
        title: titles.get(p.document_id) ?? p.document_id,
        score: p.score,
        text: p.text,
      })),
      considered: trace.sources_read,
      narrative: trace.narrative,
    };
  }

  /** Removes one document: a new revision without it; 404 when the current revision has no such document. */
  async remove(who: Principal, agentId: string, versionId: string, documentId: string): Promise<PushResponseDto> {
    return this.versions.pushChange(
      who,
      agentId,
      versionId,
      (bundle) => {
        const knowledge = bundle.knowledge ?? [];
        if (!knowledge.some((d) => d.id === documentId)) throw new NotFoundError('Document');
        return { ...bundle, knowledge: knowledge.filter((d) => d.id !== documentId) };
      },
      `Removed document ${documentId}`.slice(0, UPLOAD_LIMITS.messageChars),
    );
  }
}

/** Every file's documents, or 422 listing every file that cannot be used. */
function convert(upload: Upload): Array<{ prefix: string; documents: SplitDocument[] }> {
  const problems: ErrorDetail[] = [];
  const out: Array<{ prefix: string; documents: SplitDocument[] }> = [];
  const prefixes = new Map<string, string>();
  for (const file of upload.files) {
    const field = fileField(file.filename);
    const problem = (message: string) => problems.push({ field, message: `${file.filename} ${message}` });
    const kind = fileKind(file.filename, file.mediaType);
    if (!kind) {
      problem(`is not Markdown (.md, .markdown), HTML (.html, .htm) or plain text (.txt) (sent as ${file.mediaType || 'no type'})`);
      continue;
    }
    const prefix = fileSlug(file.filename);
    if (prefixes.has(prefix)) {
      problem(`makes the same document ids as ${prefixes.get(prefix)} (file names differ only in case or punctuation)`);
      continue;
    }
    prefixes.set(prefix, file.filename);
    const decoded = decodeText(file.bytes);
    if ('problem' in decoded) {
      problem(decoded.problem);
      continue;
    }
    const documents = documentsOf(file.filename, kind, decoded.text);
    if (!documents.length) {
      problem('has no text');
      continue;
    }
    out.push({ prefix, documents });
  }
  const count = out.reduce((n, c) => n + c.documents.length, 0);
  if (count > UPLOAD_LIMITS.documents) {
    problems.push({ field: 'files', message: `the files make ${count} documents; an upload makes at most ${UPLOAD_LIMITS.documents}` });
  }
  if (problems.length) throw new ValidationError(problems, 'Some files cannot be used as knowledge; nothing was changed');
  return out;
}

function item(document: KnowledgeDocument): KnowledgeDocumentItemDto {
  return { id: document.id, title: document.title, url: document.url ?? null, characters: document.text.length };
}
