import type { MessageDescriptor, MessageFormatElement } from 'react-intl';

/** A language's messages by id: ICU strings, or parsed ASTs (the pseudo-locale is compiled). */
export type Catalogue = Record<string, string | MessageFormatElement[]>;

/**
 * A feature's messages, as the extractor and the lint rules know them (by this name). react-intl's own
 * defineMessages types each message's values only from explicit type arguments; this one leaves them to the ICU
 * check (scripts/i18n.mjs) and formatjs/enforce-placeholders, which read the messages themselves.
 */
export const defineMessages = <const T extends Record<string, MessageDescriptor & { id: string; defaultMessage: string }>>(messages: T): T => messages;
