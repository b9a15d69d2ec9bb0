import { describe, expect, it } from 'vitest';
import { changedSpan, correctionDraft } from '../src/lib/correction-draft';

describe('a correction turned into a glossary term', () => {
  it('finds the words a correction replaced', () => {
    expect(changedSpan('El standup es a las diez.', 'La reunión diaria es a las diez.')).toEqual({ removed: 'El standup', added: 'La reunión diaria' });
    expect(changedSpan('Alborea unirá hoy.', 'Dawn se unirá hoy.')).toEqual({ removed: 'Alborea', added: 'Dawn se' });
    expect(changedSpan('Hola.', 'Hola.')).toEqual({ removed: '', added: '' });
  });

  it('takes the term from the words the machine left untranslated, and leaves it to the editor otherwise', () => {
    const draft = (machine: string, corrected: string, original = 'After the standup we eat.') => correctionDraft({ original, originalLanguage: 'en', machine, corrected, readerLanguage: 'es' });
    expect(draft('Después del standup comemos.', 'Después de la reunión diaria comemos.')).toEqual({
      term: 'standup',
      language: 'en',
      renderings: [{ language: 'es', text: 'de la reunión diaria' }],
    });
    expect(draft('Alborea unirá hoy.', 'Dawn se unirá hoy.', 'Dawn will join today.')).toEqual({ term: '', language: 'en', renderings: [{ language: 'es', text: 'Dawn se' }] });
    expect(draft('Hola.', 'Hola.')).toEqual({ term: '', language: 'en', renderings: [] });
  });
});
