/**
 * The bundle as JSON in CodeMirror 6, checked as you type against the service's published bundle schema
 * (`GET /management/v1/bundle-schema`, draft-07) by codemirror-json-schema: syntax errors, schema violations with
 * their path, completion of property names and enum values, and the schema's descriptions on hover. The problems are
 * also listed under the editor as text, so they can be read without a pointer.
 *
 * The editor lives in a shadow root: CodeMirror then styles it with constructed stylesheets (adoptedStyleSheets)
 * instead of a <style> element, which the console's CSP (`style-src 'self'`, nothing inline) refuses.
 */
import { forEachDiagnostic, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { jsonSchema } from 'codemirror-json-schema';
import { useEffect, useRef } from 'preact/hooks';

export interface EditorProblem {
  line: number;
  message: string;
}

/** The linter's diagnostics as lines and messages, in document order. */
function problemsOf(state: EditorState): EditorProblem[] {
  const out: EditorProblem[] = [];
  forEachDiagnostic(state, (d: Diagnostic, from: number) => out.push({ line: state.doc.lineAt(from).number, message: d.message }));
  return out;
}

export function BundleEditor({
  value,
  schema,
  onChange,
  onProblems,
}: {
  /** The text shown when the editor is made (a new value replaces it: the caller keys the component by revision). */
  value: string;
  schema: Record<string, unknown>;
  onChange: (text: string) => void;
  onProblems: (problems: EditorProblem[]) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const view = new EditorView({
      parent: root,
      root,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          jsonSchema(schema as Parameters<typeof jsonSchema>[0]),
          EditorView.theme({ '&': { maxHeight: '60vh', backgroundColor: '#fff' }, '.cm-scroller': { overflow: 'auto' } }),
          EditorView.contentAttributes.of({ 'aria-label': 'Bundle (JSON)' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChange(update.state.doc.toString());
            // Lint results arrive in their own transactions, after a pause in typing.
            onProblems(problemsOf(update.state));
          }),
        ],
      }),
    });
    // The scroller takes focus too, so a keyboard can scroll a long bundle (axe: scrollable-region-focusable).
    view.scrollDOM.tabIndex = 0;
    return () => view.destroy();
  }, []);
  return <div class="editor" ref={host} data-testid="bundle-editor" />;
}
