import { useState } from 'preact/hooks';

interface Props {
  value: unknown;
  disabled?: boolean;
  /** Called with the parsed JSON; resolves with the API's error to show, or undefined when saved. */
  onSave(value: unknown): Promise<string | undefined>;
  saveLabel?: string;
  rows?: number;
}

/**
 * A JSON editor: the text is checked as you type; on save the API checks it against the endpoint's
 * schema (the same checks as any client) and its 400 sentence, naming the field, shows here.
 */
export function JsonEditor({ value, disabled = false, onSave, saveLabel = 'Save', rows = 14 }: Props) {
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  let syntax: string | undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    syntax = (e as Error).message;
  }
  const save = async (): Promise<void> => {
    setSaved(false);
    const problem = await onSave(parsed);
    setError(problem);
    setSaved(problem === undefined);
  };
  return (
    <div class="editor">
      <textarea class="json" rows={rows} spellcheck={false} value={text} disabled={disabled} onInput={(e) => (setText((e.currentTarget as HTMLTextAreaElement).value), setSaved(false))} />
      <div class="row">
        <button class="primary" disabled={disabled || syntax !== undefined} onClick={save}>
          {saveLabel}
        </button>
        {syntax !== undefined && <span class="error">JSON: {syntax}</span>}
        {error !== undefined && <span class="error">{error}</span>}
        {saved && <span class="ok">Saved</span>}
      </div>
    </div>
  );
}
