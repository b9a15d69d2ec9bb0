// A chat's or a room's glossary, written once for both (the feature gives its calls): the terms
// translation must render as required or keep as written, and the members' names it never
// translates. Everyone reads it; those who may (a chat's owner and admins, a room's owner) add,
// change and remove terms, and ask for recent messages to be translated again with it. A draft
// (a reader's correction turned into a term) opens the form filled in.
import { useEffect, useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Language } from '@parla/contract/constants';
import { LIMITS } from '@parla/contract/constants';
import type { Glossary, GlossaryApply, GlossaryEntry, GlossaryEntryPatch, GlossaryEntryRequest } from '@parla/contract/glossary';
import { Dialog } from './dialog';
import { Button, CheckField, FormError, LoadFailed, SelectField, Spinner, TextField } from './ui';
import { FieldErrors } from '../lib/error-catalogue';
import { languageLabel, languageName } from '../lib/languages';
import { formatList } from '../lib/format';
import { notify } from '../lib/toast';
import { retryUnhandled } from '../lib/queries';

/** The calls of one glossary (a chat's or a room's). */
export interface GlossaryApi {
  key: readonly unknown[];
  load(): Promise<Glossary>;
  add(body: GlossaryEntryRequest): Promise<GlossaryEntry | undefined>;
  update(id: number, body: GlossaryEntryPatch): Promise<GlossaryEntry | undefined>;
  remove(id: number): Promise<boolean>;
  apply(): Promise<GlossaryApply | undefined>;
}

/** A term to add, filled in from elsewhere (a reader's correction). */
export interface GlossaryDraft {
  term: string;
  language: Language;
  renderings: { language: Language; text: string }[];
}

export function GlossaryDialog({
  open,
  onClose,
  api,
  languages,
  kind,
  draft,
}: {
  open: boolean;
  onClose: () => void;
  api: GlossaryApi;
  /** The chat's or room's languages: terms are written in one, rendered in the others. */
  languages: readonly Language[];
  /** What "recent" re-translates: messages (a chat) or utterances (a room). */
  kind: 'chat' | 'room';
  draft?: GlossaryDraft | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('glossary.title')} wide>
      <GlossaryBody api={api} languages={languages} kind={kind} draft={draft} />
    </Dialog>
  );
}

function GlossaryBody({ api, languages, kind, draft }: { api: GlossaryApi; languages: readonly Language[]; kind: 'chat' | 'room'; draft: GlossaryDraft | undefined }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const glossary = useQuery({ queryKey: api.key, queryFn: () => api.load(), retry: retryUnhandled, staleTime: 0 });
  /** The entry being changed, `'new'` for the add form, null when no form is open. */
  const [editing, setEditing] = useState<GlossaryEntry | 'new' | null>(draft ? 'new' : null);
  const [applying, setApplying] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: api.key });

  if (glossary.isPending) return <Spinner label={t('glossary.loading')} />;
  if (!glossary.data) return <LoadFailed message={t('glossary.failed')} retryLabel={t('common.retry')} onRetry={() => void glossary.refetch()} />;
  const { entries, names, mayEdit } = glossary.data;
  const name = (code: string) => languageName(code, uiLang);

  const apply = async () => {
    setApplying(true);
    try {
      const answer = await api.apply();
      if (answer) notify.success(answer.queued === 0 ? t(`glossary.appliedNone_${kind}`) : t(`glossary.applied_${kind}`, { count: answer.queued }));
    } finally {
      setApplying(false);
    }
  };

  return (
    <div className="stack glossary">
      <p className="muted">{kind === 'chat' ? t('glossary.intro') : t('glossary.roomIntro')}</p>
      {entries.length === 0 ? (
        <p className="glossary-empty">{mayEdit ? t('glossary.emptyEditor') : t('glossary.empty')}</p>
      ) : (
        <ul className="glossary-list">
          {entries.map((entry) =>
            editing !== 'new' && editing?.id === entry.id ? (
              <li key={entry.id} className="glossary-row editing">
                <EntryForm
                  api={api}
                  languages={languages}
                  entry={entry}
                  onDone={(saved) => {
                    setEditing(null);
                    if (saved) refresh();
                  }}
                />
              </li>
            ) : (
              <li key={entry.id} className="glossary-row">
                <div className="glossary-term">
                  <span className="glossary-word" dir="auto" lang={entry.language}>
                    {entry.term}
                  </span>
                  <span className="muted glossary-language">{name(entry.language)}</span>
                </div>
                <p className="glossary-rule">
                  {entry.renderings.map((rendering) => (
                    <span key={rendering.language} className="glossary-rendering">
                      {t('glossary.renderedAs', { language: name(rendering.language) })}{' '}
                      <strong dir="auto" lang={rendering.language}>
                        {rendering.text}
                      </strong>
                    </span>
                  ))}
                  {entry.keep && <span className="glossary-rendering">{entry.renderings.length ? t('glossary.keptElsewhere') : t('glossary.kept')}</span>}
                </p>
                {mayEdit && (
                  <div className="glossary-controls">
                    <Button variant="secondary" className="btn-small" onClick={() => setEditing(entry)} aria-label={t('glossary.changeLabel', { term: entry.term })}>
                      {t('glossary.change')}
                    </Button>
                    <RemoveButton
                      term={entry.term}
                      onRemove={async () => {
                        if (await api.remove(entry.id)) refresh();
                      }}
                    />
                  </div>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {mayEdit &&
        (editing === 'new' ? (
          <div className="glossary-add">
            <h3>{t('glossary.addTitle')}</h3>
            <EntryForm
              api={api}
              languages={languages}
              draft={draft}
              onDone={(saved) => {
                setEditing(null);
                if (saved) refresh();
              }}
            />
          </div>
        ) : (
          <Button variant="secondary" onClick={() => setEditing('new')} disabled={entries.length >= LIMITS.glossaryEntries}>
            {t('glossary.add')}
          </Button>
        ))}
      {names.length > 0 && (
        <div className="glossary-names">
          <h3>{t('glossary.namesTitle')}</h3>
          <p className="muted">{t('glossary.namesHint')}</p>
          <p dir="auto">{formatList(names, uiLang)}</p>
        </div>
      )}
      {mayEdit && entries.length > 0 && (
        <div className="danger-zone">
          <h3>{t(`glossary.applyTitle_${kind}`)}</h3>
          <p className="muted">{t(`glossary.applyHint_${kind}`, { count: LIMITS.glossaryApplyRecent })}</p>
          <Button variant="secondary" busy={applying} onClick={() => void apply()}>
            {t(`glossary.apply_${kind}`)}
          </Button>
        </div>
      )}
      {!mayEdit && <p className="muted glossary-who">{t(`glossary.whoEdits_${kind}`)}</p>}
    </div>
  );
}

function RemoveButton({ term, onRemove }: { term: string; onRemove: () => Promise<void> }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <Button variant="ghost" className="btn-small" onClick={() => setAsking(true)} aria-label={t('glossary.removeLabel', { term })}>
        {t('glossary.remove')}
      </Button>
    );
  }
  return (
    <span className="glossary-confirm" role="group" aria-label={t('glossary.removeLabel', { term })}>
      <Button
        variant="danger"
        className="btn-small"
        busy={busy}
        autoFocus
        onClick={() => {
          setBusy(true);
          void onRemove().finally(() => setBusy(false));
        }}
      >
        {t('glossary.removeConfirm')}
      </Button>
      <Button variant="ghost" className="btn-small" onClick={() => setAsking(false)}>
        {t('chats.cancel')}
      </Button>
    </span>
  );
}

/** Adds a term (from a draft, or empty), or changes `entry`. */
function EntryForm({
  api,
  languages,
  entry,
  draft,
  onDone,
}: {
  api: GlossaryApi;
  languages: readonly Language[];
  entry?: GlossaryEntry;
  draft?: GlossaryDraft | undefined;
  onDone: (saved: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const id = useId();
  const start = entry ?? draft;
  const [term, setTerm] = useState(start?.term ?? '');
  const [language, setLanguage] = useState<Language>(start?.language ?? languages[0] ?? 'en');
  const [keep, setKeep] = useState(entry?.keep ?? false);
  const [renderings, setRenderings] = useState<Partial<Record<Language, string>>>(() => Object.fromEntries((start?.renderings ?? []).map((item) => [item.language, item.text])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const others = languages.filter((code) => code !== language);
  // The term's own language has no rendering of it.
  useEffect(() => setErrors({}), [language]);

  const submit = async () => {
    const body = {
      term: term.trim(),
      language,
      keep,
      renderings: others.flatMap((code) => {
        const text = renderings[code]?.trim();
        return text ? [{ language: code, text }] : [];
      }),
    };
    if (!body.term) return setErrors({ term: t('glossary.termRequired') });
    if (!body.keep && body.renderings.length === 0) return setErrors({ renderings: t('glossary.nothing') });
    setBusy(true);
    try {
      const saved = entry ? await api.update(entry.id, body) : await api.add(body);
      if (saved) onDone(true);
    } catch (error) {
      if (error instanceof FieldErrors) {
        setErrors(error.fields);
        error.shownInForm = true;
      }
    } finally {
      setBusy(false);
    }
  };

  const renderingErrors = Object.entries(errors).filter(([attr]) => attr.startsWith('renderings'));
  return (
    <form
      className="stack glossary-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="glossary-form-term">
        <TextField label={t('glossary.term')} hint={t('glossary.termHint')} value={term} maxLength={LIMITS.glossaryTermMax} onChange={(event) => setTerm(event.target.value)} error={errors.term} autoFocus={!entry} />
        <SelectField label={t('glossary.termLanguage')} value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
          {(languages.includes(language) ? languages : [language, ...languages]).map((code) => (
            <option key={code} value={code}>
              {languageLabel(code, uiLang)}
            </option>
          ))}
        </SelectField>
      </div>
      <fieldset className="glossary-renderings" aria-describedby={`${id}-hint`}>
        <legend>{t('glossary.renderingsTitle')}</legend>
        <p id={`${id}-hint`} className="field-hint">
          {t('glossary.renderingsHint')}
        </p>
        {others.map((code) => (
          <TextField
            key={code}
            label={t('glossary.renderingIn', { language: languageName(code, uiLang, { inSentence: true }) })}
            lang={code}
            dir="auto"
            value={renderings[code] ?? ''}
            maxLength={LIMITS.glossaryTermMax}
            onChange={(event) => setRenderings((current) => ({ ...current, [code]: event.target.value }))}
          />
        ))}
        <CheckField label={t('glossary.keep')} hint={t('glossary.keepHint')} checked={keep} onChange={(event) => setKeep(event.target.checked)} />
      </fieldset>
      <FormError message={[...renderingErrors.map(([, message]) => message), ...Object.entries(errors).filter(([attr]) => !attr.startsWith('renderings') && attr !== 'term').map(([, message]) => message)].join(' ') || undefined} />
      <div className="edit-actions">
        <Button variant="ghost" onClick={() => onDone(false)}>
          {t('chats.cancel')}
        </Button>
        <Button type="submit" busy={busy}>
          {entry ? t('common.save') : t('glossary.addButton')}
        </Button>
      </div>
    </form>
  );
}
