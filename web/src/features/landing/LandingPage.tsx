import { Link, useNavigate } from 'react-router';
import { HERO_SUBTITLE, HERO_TITLE, STARTER_COINS_TEXT } from './constants';
import { PATHS, createItemPath, selectCityToPostPath } from '../../shared/constants';
import { Button, buttonClass } from '../../shared/ui/Button';
import { useSignedInAction } from '../../shared/session/useResumeAfterLogin';
import { feedPath, rememberedGroupId } from '../../shared/rememberedGroup';
import { FinderFeeRule } from '../../shared/ui/FinderFeeRule';

const STEPS = [
  {
    icon: '📣',
    title: 'Post',
    text: 'Tell your city what you need done, or what you sell. Add a reward in coins or real money if you like, and your post is live at once.',
  },
  {
    icon: '🔗',
    title: 'Share',
    text: 'Know someone who can help? Share the post with your own link. When the poster pays the helper who came through your link, you earn a finder’s fee on top, and so do the people who shared it before you.',
  },
  {
    icon: '💬',
    title: 'Chat',
    text: 'Talk to the poster right away in a chat about the post. Agree on the details, then the poster pays out the reward from their wallet.',
  },
] as const;

const DIFFERENCES = [
  'No approval queue: your post appears the moment you publish it. Group moderators step in only against spam and abuse.',
  'No feed algorithm deciding who gets seen. Your city’s feed is simply what people post.',
  'People who connect buyers and sellers are rewarded, instead of a platform taking the cut.',
] as const;

const PREVIEW_POSTS = [
  { title: 'Need a plumber for a leaking kitchen tap', reward: '€20 reward', shares: 3 },
  { title: 'Selling a barely used cargo bike', reward: '🪙 50 finder’s fee', shares: 7 },
] as const;

export function LandingPage() {
  const feed = feedPath();

  return (
    <div className="bg-white">
      <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-32 -right-24 size-96 rounded-full bg-brand-200/50 blur-3xl"
        />
        <div className="relative mx-auto max-w-6xl px-5 pt-6 pb-16 sm:px-8 sm:pb-24">
          <nav aria-label="Landing menu" className="flex justify-end gap-2">
            <Link to={feed} className={buttonClass('ghost', 'sm')}>
              Feed
            </Link>
            <Link to={PATHS.selectCity} className={buttonClass('ghost', 'sm')}>
              Change Location
            </Link>
          </nav>

          <div className="mt-10 grid items-center gap-12 lg:mt-16 lg:grid-cols-[1.1fr_1fr]">
            <div>
              <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-xs font-semibold text-brand-700 shadow-sm ring-1 ring-brand-100">
                <span className="size-1.5 rounded-full bg-brand-500" aria-hidden="true" />
                Your city’s marketplace and group chat
              </p>
              <h1 className="mt-5 text-4xl leading-[1.05] font-extrabold tracking-tight text-slate-900 sm:text-6xl">
                {HERO_TITLE}
              </h1>
              <p className="mt-4 text-2xl font-semibold tracking-tight text-brand-700 sm:text-3xl">{HERO_SUBTITLE}</p>
              <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-600">
                Post a request, a product or a service to the people around you. Friends share it onwards, and
                whoever helps close the deal earns a reward.
              </p>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                <Link to={feed} className={buttonClass('primary', 'lg')}>
                  Open your city feed
                </Link>
                <a href="#how-it-works" className={buttonClass('secondary', 'lg')}>
                  How it works
                </a>
              </div>
            </div>

            <FeedPreview />
          </div>
        </div>
      </section>

      <section id="how-it-works" className="mx-auto max-w-6xl scroll-mt-20 px-5 py-16 sm:px-8 sm:py-24">
        <h2 className="text-3xl font-bold tracking-tight sm:text-4xl">How it works</h2>
        <p className="mt-3 max-w-2xl text-lg text-slate-600">Three steps, no middle office.</p>
        <ol className="mt-10 grid gap-5 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-3xl bg-slate-50 p-6 ring-1 ring-slate-200/70">
              <div className="flex items-center gap-3">
                <span className="flex size-11 items-center justify-center rounded-2xl bg-white text-xl shadow-sm" aria-hidden="true">
                  {step.icon}
                </span>
                <span className="text-sm font-semibold text-slate-500">0{index + 1}</span>
              </div>
              <h3 className="mt-5 text-xl font-bold">{step.title}</h3>
              <p className="mt-2 leading-relaxed text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-10 rounded-3xl bg-amber-50 p-6 ring-1 ring-amber-200 sm:p-8">
          <h3 className="text-xl font-bold text-amber-950">How a finder’s fee is split</h3>
          <FinderFeeRule className="mt-3 max-w-3xl leading-relaxed text-amber-950" />
        </div>
      </section>

      <section className="bg-slate-900 text-white">
        <div className="mx-auto grid max-w-6xl gap-10 px-5 py-16 sm:px-8 sm:py-24 lg:grid-cols-2">
          <div>
            <h2 className="text-3xl font-bold tracking-tight sm:text-4xl">An alternative to moderated social networks</h2>
            <p className="mt-4 text-lg leading-relaxed text-slate-300">
              Groups on big social networks bury your post, hide it behind an approval queue, or ban selling
              altogether. Agora is built for getting things done locally.
            </p>
          </div>
          <ul className="space-y-4">
            {DIFFERENCES.map((text) => (
              <li key={text} className="flex gap-3 rounded-2xl bg-white/5 p-4 ring-1 ring-white/10">
                <span className="mt-0.5 text-brand-400" aria-hidden="true">
                  ✓
                </span>
                <span className="leading-relaxed text-slate-200">{text}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-5 py-16 sm:px-8 sm:py-24">
        <div className="flex flex-col items-start gap-6 rounded-3xl bg-gradient-to-br from-amber-50 to-amber-100 p-8 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:p-12">
          <span className="text-5xl" aria-hidden="true">
            🪙
          </span>
          <div className="flex-1">
            <h2 className="text-2xl font-bold tracking-tight text-amber-950 sm:text-3xl">Start with coins in your wallet</h2>
            <p className="mt-2 text-lg text-amber-900">
              {STARTER_COINS_TEXT} Use them as rewards on your first posts.
            </p>
          </div>
          <PostSomethingButton />
        </div>
      </section>

      <footer className="border-t border-slate-200">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-5 py-8 text-sm text-slate-500 sm:flex-row sm:justify-between sm:px-8">
          <p>Agora: post, share and chat in your city.</p>
          <nav aria-label="Footer" className="flex gap-4">
            <Link to={feed} className="hover:text-slate-900">
              Feed
            </Link>
            <Link to={PATHS.selectCity} className="hover:text-slate-900">
              Change Location
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}

/**
 * The post form of the city the user last used (choosing the city first when there is none);
 * a visitor logs in first, and the form opens after, without a second press.
 */
function PostSomethingButton() {
  const navigate = useNavigate();
  const press = useSignedInAction('post-something', () => {
    const groupId = rememberedGroupId();
    navigate(groupId ? createItemPath(groupId) : selectCityToPostPath);
  });
  return (
    <Button size="lg" onClick={press}>
      Post something
    </Button>
  );
}

/** An illustration of a city feed; real posts appear once the user picks a city. */
function FeedPreview() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md select-none">
      <div className="rounded-3xl bg-white p-4 shadow-xl ring-1 ring-slate-200 sm:p-5">
        <div className="flex items-center justify-between">
          <div className="flex items-center gap-2">
            <span className="text-lg">📍</span>
            <span className="font-semibold">Amsterdam</span>
          </div>
          <span className="rounded-full bg-brand-600 px-2.5 py-0.5 text-sm font-bold text-white">+</span>
        </div>
        <ul className="mt-4 space-y-3">
          {PREVIEW_POSTS.map((post) => (
            <li key={post.title} className="rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200/70">
              <p className="font-semibold text-slate-800">{post.title}</p>
              <div className="mt-3 flex flex-wrap items-center gap-2 text-xs font-medium">
                <span className="rounded-full bg-amber-100 px-2 py-1 text-amber-800">{post.reward}</span>
                <span className="rounded-full bg-slate-200/70 px-2 py-1 text-slate-600">🔗 {post.shares} shares</span>
                <span className="ml-auto rounded-full bg-brand-50 px-2.5 py-1 text-brand-700">💬 Chat</span>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <div className="absolute -bottom-5 -left-3 rounded-2xl bg-white px-4 py-3 text-sm shadow-lg ring-1 ring-slate-200 sm:-left-8">
        <span className="font-semibold text-brand-700">+ €5</span> finder’s fee for sharing
      </div>
    </div>
  );
}
