import { Fragment } from 'react';

// Punctuation right after a link ends the sentence, not the link.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)]/gi;

/** The links in a message's text, in order, without repeats. */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(URL_PATTERN) ?? [])];
}

/** Text with its links made clickable. */
export function Linked({ text }: { text: string }) {
  const links = linksIn(text);
  if (links.length === 0) return <>{text}</>;
  const pattern = new RegExp(`(${links.map((link) => link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`);
  return (
    <>
      {text.split(pattern).map((part, index) =>
        links.includes(part) ? (
          <a key={index} href={part} target="_blank" rel="noopener noreferrer" className="break-all underline">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
