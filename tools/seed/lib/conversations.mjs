// The seeded conversations (issue 9): every seeded match has its conversation in chat-service's
// database, and a share of them a short believable exchange that started after the match. Lines
// come in small "beats" (a question and its answers), the opener refers to an interest the two
// share (or one of the other member's), some members double-text, the longer exchanges end with
// a plan to meet. Deterministic for the seed and the pair, like the rest of the population.
import { Rng, uuidFrom } from './random.mjs';

/** Share of seeded matches whose members have written to each other. */
export const EXCHANGE_SHARE = 0.6;
export const MIN_MESSAGES = 3;
export const MAX_MESSAGES = 25;
/** Share of exchanges whose last messages the recipient has not read yet. */
export const UNREAD_SHARE = 0.25;
/** Chance that a line is followed by a second one from the same member. */
const DOUBLE_TEXT = 0.12;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Openers about an interest: [opener, answer, follow-up]; {interest} is the lower-case interest. */
const INTEREST_OPENERS = {
  Travel: [
    [
      'Okay I need to know where your last trip was, your photos are giving serious wanderlust',
      'Haha thank you! Lisbon in the spring, the food alone was worth it. Do you travel a lot?',
      'Whenever I can. Portugal is high on my list now',
    ],
    [
      'Hi {name}! Fellow traveller here. Window or aisle?',
      'Window, always. I need to see the clouds. You?',
      'Window too, we would fight over the armrest then 😄',
    ],
  ],
  Music: [
    [
      'Hey {name}! What was the last concert you went to?',
      'A tiny jazz show in a basement bar, honestly one of the best nights this year. You?',
      'Nothing that cool, a festival in the summer. But I love small venues',
    ],
    [
      'Important question first: what are you listening to right now?',
      'Haha a lot of old soul this week. What about you?',
      'Indie stuff mostly, I will send you a playlist if you are brave',
    ],
  ],
  Fitness: [
    [
      'Hi {name}! Morning or evening workouts?',
      'Morning, before my brain can talk me out of it 😅 You?',
      'Evenings, I am not a functioning human before 8',
    ],
  ],
  Cooking: [
    [
      'I read that you cook, so I have to ask: what is your signature dish?',
      'Homemade pasta with a slow tomato sauce. It takes hours but it is worth it. Do you cook?',
      'I try! My risotto is decent, my baking is a disaster',
    ],
  ],
  Art: [
    [
      'Hey! Have you seen any good exhibitions lately?',
      'Yes! There is a photography show downtown that I keep thinking about. Are you into museums?',
      'Very, museum dates are the best dates in my opinion',
    ],
  ],
  Photography: [
    [
      'Hi {name}, your photos are really good. Do you shoot film or digital?',
      'Thank you! Mostly film, I like that every picture counts. Do you take photos?',
      'Only on my phone, but I am always chasing golden hour',
    ],
  ],
  Reading: [
    [
      'Hi {name}! What are you reading at the moment?',
      'Three books at once, as usual 😅 a thriller, a memoir and something about octopuses. You?',
      'Octopuses?? I need to hear more about that one',
    ],
  ],
  Gaming: [
    [
      'Hey! Important: Mario Kart, yes or no?',
      'Yes, and I will win. Fair warning. Do you play a lot?',
      'Mostly co-op games with friends, but I accept the challenge',
    ],
  ],
  Sports: [
    [
      'Hi {name}! Did you watch the game last night?',
      'Of course! That last minute was painful. Who do you support?',
      'Let us not talk about my team this season 😂',
    ],
  ],
  Movies: [
    [
      'Hey {name}, what is the last film that really got you?',
      'Honestly an old black and white one I watched on a rainy Sunday. You?',
      'I cried at an animated movie last week, no shame',
    ],
  ],
  Dancing: [
    [
      'Hi! I saw you like dancing, salsa or something else?',
      'Salsa on Wednesdays! I am not good but I am enthusiastic. Do you dance?',
      'Only at weddings, but I take it very seriously',
    ],
  ],
  Hiking: [
    [
      'Hi {name}! Where was that mountain photo taken? It looks amazing',
      'Thank you! That was on a trail about two hours out of the city. Do you hike?',
      'Whenever I can escape the city, yes. I have been looking for new trails',
    ],
    [
      'Hey! Fellow hiker here 🥾 What is your favourite trail so far?',
      'Hard to choose, but anything that ends with a view and a sandwich. Yours?',
      'Same answer, the sandwich is non-negotiable',
    ],
  ],
  Technology: [
    [
      "Hi {name}! Are you the friend who fixes everyone's wifi too?",
      'Haha guilty. It is a curse. Are you a tech person?',
      'A bit, I build little side projects when I should be sleeping',
    ],
  ],
  Fashion: [
    [
      'Hey {name}, I love your style! Vintage or new?',
      'Thank you!! Mostly vintage, thrift shops are my weakness. You?',
      'Same, I can spend hours in a good second-hand shop',
    ],
  ],
  Food: [
    [
      'Hi {name}! I need your best restaurant recommendation around here',
      'Oh that is a dangerous question, I have a list. What kind of food do you like?',
      'Anything really, but I have a soft spot for good tacos',
    ],
  ],
  Pets: [
    [
      'Hi {name}! First things first, is that your dog in the photos? 🐶',
      'Haha yes, that is my chief wingman. Do you have pets?',
      'Not right now, but I am a big dog person',
    ],
  ],
  Yoga: [
    [
      'Hey {name}! How long have you been doing yoga?',
      'A few years now, it keeps me sane. Do you practise?',
      'Trying to, my flexibility is a work in progress 😅',
    ],
  ],
  Writing: [
    [
      'Hi! I saw you write, what kind of writing?',
      'Short stories mostly, and a novel I keep rewriting. Do you write?',
      'Just a journal, but I love reading what people make up',
    ],
  ],
  Coffee: [
    [
      'Hi {name}! Very important question: how do you take your coffee?',
      'Flat white, no sugar. And you?',
      'Black, the stronger the better ☕',
    ],
    [
      'Hey! Fellow coffee lover, what is your favourite café around here?',
      'There is a tiny place near my work with the best pastries. You?',
      'I have a few, I will tell you when you earn it 😄',
    ],
  ],
  Wine: [
    [
      'Hi {name}! Red or white?',
      'Red most of the time, but a cold white in summer. You?',
      'Same, and lately I am getting into natural wines',
    ],
  ],
  Nature: [
    [
      'Hey {name}! Beach or mountains?',
      'Mountains, I think. I love the quiet. You?',
      'Mountains too, and camping under the stars',
    ],
  ],
};

/** Openers that need no shared interest. */
const GENERIC_OPENERS = [
  [
    'Hey {name}! How is your week going?',
    'Hi! Busy but good, thanks. How about yours?',
    'Pretty good! Better now 🙂',
  ],
  ['Hi {name} 👋', 'Hey! Nice to match with you', 'Likewise! How is your day going?'],
  [
    'Hello! Your profile made me smile',
    'Aw thank you, that is sweet. Yours too!',
    'So what brings you here?',
  ],
  [
    'Hey! Two truths and a lie? You go first 😄',
    'Haha okay: I have been to Iceland, I can juggle, I hate pizza',
    'The pizza one is definitely the lie',
  ],
];

/** The middle of a conversation: beats of two or three lines, alternating. */
const SMALL_TALK = [
  [
    'So what do you do when you are not on here?',
    'Work, too much coffee and trying new restaurants. You?',
    'Pretty much the same, plus {interest} on the weekends',
  ],
  [
    'How long have you lived in {city}?',
    'About four years now. Still discovering new places. You?',
    'Born and raised, so I can show you the good spots',
  ],
  [
    'Any plans for the weekend?',
    "A friend's birthday on Saturday and a very lazy Sunday. You?",
    'Sounds perfect. I might go for a long walk if the weather holds',
  ],
  [
    'What is the best thing that happened to you this week?',
    'I finally finished a big project at work 🎉',
    'Congrats! That calls for a celebration',
  ],
  [
    'Are you a morning person or a night owl?',
    'Night owl, definitely. Mornings are a struggle',
    'Same here, coffee is the only thing that saves me',
  ],
  [
    'What is your go-to karaoke song?',
    'Oh no. Probably something from the 80s that I cannot actually sing',
    'That is the spirit of karaoke though',
  ],
  [
    'Favourite way to spend a Sunday?',
    'Long breakfast, a walk, and a movie in the evening. Yours?',
    'That sounds ideal honestly',
  ],
  [
    'What is something you are really good at that nobody expects?',
    'I can parallel park on the first try every time',
    'That is genuinely impressive',
  ],
  [
    'If you could be anywhere right now, where would you be?',
    'On a beach somewhere warm with a good book. You?',
    'Somewhere in the mountains with no phone signal',
  ],
  [
    'How was your day?',
    'Long, but it just got better 🙂 Yours?',
    'Not bad! Lots of meetings, but it is over now',
  ],
  [
    'Do you have any siblings?',
    'One younger sister, she is the funny one. You?',
    'Two brothers, I am the middle child, so that explains a lot 😂',
  ],
  ['What is on your bucket list?', 'Seeing the northern lights. You?', 'Learning to surf, one day'],
  [
    'Tell me something that made you laugh today',
    'My colleague tried to microwave soup without a lid. RIP microwave',
    'Haha poor microwave',
  ],
  ['Cats or dogs?', 'Dogs, but I respect cats. You?', 'Dogs, no contest'],
  [
    'What is the best meal you have ever had?',
    'A tiny seafood place by the sea on holiday, I still dream about it',
    'Now I am hungry',
  ],
  [
    'Do you cook or order in?',
    'I cook most nights, I find it relaxing. You?',
    'Order in, but I am trying to change that',
  ],
  [
    'What is the last thing you binge-watched?',
    'A documentary series about chefs. I need to travel now',
    'I know exactly which one you mean, it is so good',
  ],
  [
    'What is your idea of a perfect first date?',
    'Something simple, a walk and a drink where we can actually talk',
    'Agreed, loud bars are the worst for that',
  ],
];

/** Asides a member adds right after their own question, or after their own answer. */
const AFTER_QUESTION = [
  'also, great photos btw',
  'sorry, random question 😅',
  'oh and hi 👋',
  'no pressure to answer quickly by the way',
  'I am curious now',
  'be honest 😄',
];
const AFTER_ANSWER = [
  '😂',
  '🙂',
  'haha',
  'anyway, enough about me',
  'sorry, just saw your message',
  'long story 😅',
];

/** How the longer exchanges end: a plan to meet. */
const PLANS = [
  [
    'I am really enjoying this. Want to grab a coffee sometime?',
    'I would love that! Are you free on Thursday?',
    'Thursday works. There is a nice café near the park',
    'Perfect, see you there at 6? 🙂',
  ],
  [
    'We should continue this over a drink',
    'Yes! How about Saturday evening?',
    'Saturday is great. Any place you like?',
    'I know a quiet wine bar, I will send you the address',
  ],
  [
    'Would you want to meet up this week?',
    'Definitely, what did you have in mind?',
    'Maybe a walk and some food? Nothing fancy',
    'Sounds perfect, Wednesday after work?',
  ],
];

/** Lines that keep a conversation going once the beats run out (long exchanges). */
const FOLLOW_UPS = [
  ['Haha that is amazing', 'Right? Anyway, tell me more about you'],
  ['Good morning! Did you sleep well?', 'Morning! Not enough, but that is normal 😅'],
  [
    'I just walked past that place you mentioned',
    'Did you go in?? It is so good',
    'Next time, it was packed',
  ],
  ['How did the meeting go?', 'Better than expected actually, thanks for asking!'],
  ['Sorry for the late reply, crazy day', 'No worries at all! Hope it got better', 'It did now 🙂'],
  ['Random question: pineapple on pizza?', 'Controversial, but yes', 'I can live with that'],
];

const fill = (text, vars) => text.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? '');
const placeOf = (m) => m.location?.split(',')[0] ?? 'town';

/**
 * @typedef {object} SeedMember what a conversation needs of a member (memberAt of population.mjs)
 * @property {string} userId
 * @property {string} name
 * @property {string[]} interests
 * @property {string} [location]
 *
 * @typedef {object} SeedMessage
 * @property {string} id
 * @property {number} seq 1..n in the conversation
 * @property {string} senderId
 * @property {string} recipientId
 * @property {string} clientId unique per sender (a UUID, as the app sends)
 * @property {string} content
 * @property {Date} at
 *
 * @typedef {object} SeedConversation
 * @property {string} id
 * @property {string} memberA the smaller id (chat's conversation keeps member_a < member_b)
 * @property {string} memberB
 * @property {string} matchId
 * @property {Date} matchedAt
 * @property {SeedMessage[]} messages
 * @property {number} aReadSeq
 * @property {number} bReadSeq
 * @property {number} aUnread messages to member A after A's read seq
 * @property {number} bUnread
 */

/**
 * The lines of an exchange between `first` (who writes first) and `second`: [speaker index, text][],
 * exactly `count` of them (0 = first, 1 = second).
 */
export function exchangeLines(rng, first, second, count) {
  const shared = first.interests.filter((i) => second.interests.includes(i) && INTEREST_OPENERS[i]);
  const topic = shared.length
    ? rng.pick(shared)
    : rng.pick(second.interests.filter((i) => INTEREST_OPENERS[i]).concat(['']));
  const people = [first, second];
  const opener = topic && rng.chance(0.8) ? rng.pick(INTEREST_OPENERS[topic]) : rng.pick(GENERIC_OPENERS);
  const common = rng.pick(shared.length ? shared : first.interests) ?? 'music';
  /** Beats in order: the opener, small talk, and for long exchanges a plan near the end. */
  const beats = [opener, ...rng.sample(SMALL_TALK, SMALL_TALK.length)];
  const plan = count >= 10 ? rng.pick(PLANS) : null;
  const lines = [];
  let speaker = 0;
  let follow = 0;
  const say = (who, text) => {
    const other = people[1 - who];
    lines.push([
      who,
      fill(text, { name: other.name, interest: common.toLowerCase(), city: placeOf(people[who]) }),
    ]);
  };
  // The beats before the plan stop where the plan begins, so a long exchange ends on it.
  const room = plan ? count - plan.length : count;
  for (let b = 0; lines.length < room; b++) {
    const beat = b < beats.length ? beats[b] : FOLLOW_UPS[follow++ % FOLLOW_UPS.length];
    // The opener is the first writer's; after it, whoever answered last often asks the next question.
    const starter = b === 0 ? 0 : rng.chance(0.6) ? 1 - speaker : speaker;
    beat.forEach((text, k) => {
      if (lines.length >= room) return;
      const who = (starter + k) % 2;
      say(who, text);
      speaker = who;
      if (k < 2 && lines.length < room && rng.chance(DOUBLE_TEXT))
        say(who, rng.pick(k === 0 ? AFTER_QUESTION : AFTER_ANSWER));
    });
  }
  if (plan) {
    const starter = rng.chance(0.6) ? 1 - speaker : speaker;
    plan.forEach((text, k) => {
      speaker = (starter + k) % 2;
      say(speaker, text);
    });
  }
  while (lines.length < count) {
    speaker = 1 - speaker;
    say(speaker, rng.pick(AFTER_ANSWER));
  }
  return lines.slice(0, count);
}

/**
 * Times of `count` messages after `matchedAt`: the first within minutes to a day or two, then
 * quick replies within a beat and longer pauses between them; squeezed so the last is at `lastAt`
 * (when given) or before `now`.
 */
function messageTimes(rng, count, matchedAt, now, lastAt) {
  const offsets = [];
  let t = rng.chance(0.5) ? rng.range(2 * MINUTE, 3 * HOUR) : rng.range(3 * HOUR, 2 * DAY);
  for (let i = 0; i < count; i++) {
    offsets.push(t);
    t += rng.chance(0.7) ? rng.range(20_000, 15 * MINUTE) : rng.range(30 * MINUTE, 20 * HOUR);
  }
  const start = matchedAt.getTime();
  const last = offsets[count - 1];
  const room = lastAt !== undefined ? lastAt - start : Math.max(0, now - start) * 0.98;
  const scale = lastAt !== undefined || last > room ? room / last : 1;
  let previous = start;
  return offsets.map((o) => {
    const at = Math.max(previous + 1, Math.round(start + o * scale));
    previous = at;
    return new Date(at);
  });
}

/**
 * The conversation of one match. `options.count` forces the number of messages (0 for none),
 * `options.firstWriter` who writes first (0 = the pair's `a` argument), `options.lastAt` the time
 * of the last message, `options.unreadBy` a member (0/1) who has not read the last messages,
 * which are then the other member's (1–`unreadRun` of them), `options.allRead` nobody has unread.
 *
 * @param {string} seed
 * @param {{ id: string, userA: string, userB: string, at: Date }} match
 * @param {SeedMember} a the member with id userA
 * @param {SeedMember} b the member with id userB
 * @param {{ now: number, count?: number, firstWriter?: 0 | 1, lastAt?: number, unreadBy?: 0 | 1, unreadRun?: number, allRead?: boolean }} options
 * @returns {SeedConversation}
 */
export function conversationOf(seed, match, a, b, options) {
  const rng = new Rng('conversation', seed, match.userA, match.userB);
  // chat-service names a conversation by the match that opened it.
  const id = match.id;
  const count =
    options.count ??
    (rng.chance(EXCHANGE_SHARE)
      ? MIN_MESSAGES + Math.floor(rng.next() ** 1.6 * (MAX_MESSAGES - MIN_MESSAGES + 1))
      : 0);
  const base = { id, memberA: match.userA, memberB: match.userB, matchId: match.id, matchedAt: match.at };
  if (count === 0) return { ...base, messages: [], aReadSeq: 0, bReadSeq: 0, aUnread: 0, bUnread: 0 };
  const pair = [a, b];
  const firstWriter = options.firstWriter ?? (rng.chance(0.5) ? 0 : 1);
  const lines = exchangeLines(rng, pair[firstWriter], pair[1 - firstWriter], count).map(([who, text]) => [
    firstWriter === 0 ? who : 1 - who,
    text,
  ]);
  if (options.unreadBy !== undefined) {
    // The last `unreadRun` lines are the other member's (the unread ones).
    const writer = 1 - options.unreadBy;
    const run = Math.max(1, Math.min(options.unreadRun ?? 1, lines.length - 1));
    for (let k = lines.length - run; k < lines.length; k++) lines[k][0] = writer;
    if (lines[lines.length - run - 1][0] === writer) lines[lines.length - run - 1][0] = options.unreadBy;
  }
  const times = messageTimes(rng, count, match.at, options.now, options.lastAt);
  const messages = lines.map(([who, text], i) => {
    const sender = pair[who];
    const recipient = pair[1 - who];
    return {
      id: uuidFrom('message', seed, id, i + 1),
      seq: i + 1,
      senderId: sender.userId,
      recipientId: recipient.userId,
      clientId: uuidFrom('message-client', seed, id, i + 1),
      content: text,
      at: times[i],
    };
  });
  // Read state: each member has read everything up to their own last message at least (they
  // answered it); mostly everything. Otherwise the last writer's trailing messages are unread.
  const lastSeq = messages.length;
  const lastWriter = messages[lastSeq - 1].senderId === a.userId ? 0 : 1;
  const unread =
    options.unreadBy !== undefined
      ? options.unreadBy === 1 - lastWriter
      : !options.allRead && rng.chance(UNREAD_SHARE);
  const readSeq = [lastSeq, lastSeq];
  if (unread) {
    const reader = 1 - lastWriter;
    let k = lastSeq;
    while (k > 0 && messages[k - 1].senderId === pair[lastWriter].userId) k--;
    readSeq[reader] = k;
  }
  const unreadOf = (who) =>
    messages.filter((m) => m.recipientId === pair[who].userId && m.seq > readSeq[who]).length;
  return {
    ...base,
    messages,
    aReadSeq: readSeq[0],
    bReadSeq: readSeq[1],
    aUnread: unreadOf(0),
    bUnread: unreadOf(1),
  };
}

/**
 * The conversations of a window's matches (history.mjs), one per match; `members` holds both
 * members of every match (by user id).
 *
 * @param {string} seed
 * @param {{ id: string, userA: string, userB: string, at: Date }[]} matches
 * @param {Map<string, SeedMember>} members
 * @param {{ now: number }} options
 */
export function seedConversations(seed, matches, members, { now }) {
  return matches.map((m) => {
    const a = members.get(m.userA);
    const b = members.get(m.userB);
    if (!a || !b) throw new Error(`match ${m.id}: a member is not in the window`);
    return conversationOf(seed, m, a, b, { now });
  });
}
