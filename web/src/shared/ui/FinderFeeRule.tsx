import { finderFeeExample, FINDER_FEE_RULE_TEXT } from '../entities/finderFee';

/**
 * How a finder's fee is split, in words and worked through on a sample reward. The numbers
 * are the server's (generated from the rule that pays), so this says what is paid.
 * `collapsed` keeps the sample behind a disclosure (where a real split is already shown).
 */
export function FinderFeeRule({ className = '', collapsed = false }: { className?: string; collapsed?: boolean }) {
  const example = finderFeeExample();
  const worked = (
    <>
      <p className="font-medium">{example.intro}</p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {example.chains.map((chain) => (
          <li key={chain}>{chain}</li>
        ))}
      </ul>
    </>
  );
  return (
    <div data-testid="finder-fee-rule" className={`space-y-2 ${className}`}>
      <p>{FINDER_FEE_RULE_TEXT}</p>
      {collapsed ? (
        <details>
          <summary className="cursor-pointer font-medium text-brand-700">An example</summary>
          <div className="mt-1">{worked}</div>
        </details>
      ) : (
        worked
      )}
    </div>
  );
}
