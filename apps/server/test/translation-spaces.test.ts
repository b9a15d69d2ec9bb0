// A rendering as readers get it: the spaces a translation engine leaves (Apertium: a leading
// space, two between words) are taken out; line breaks and the indentation of a line are kept.
import { describe, expect, it } from 'vitest';
import { tidySpaces } from '../src/domain/rendering/translation/index';

describe('the spaces of a rendering', () => {
  it('are single between words and none at the ends', () => {
    expect(tidySpaces(' Hola  mundo.  ')).toBe('Hola mundo.');
    expect(tidySpaces('Buenos\t\tdías a  todos')).toBe('Buenos días a todos');
  });
  it('keep the lines and their indentation', () => {
    expect(tidySpaces('Primera línea  \n    sangrada  aquí\n\nfin')).toBe('Primera línea\n    sangrada aquí\n\nfin');
  });
});
