import { Fragment } from 'react';
import { linksIn } from './messages';

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
