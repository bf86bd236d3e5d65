// Word lists of the demo population. Option values mirror libs/contracts/src/lib/profile.ts
// (spec 000 §3 and 001 §3); the integration test checks every seeded value against the contracts.

/** Gender, both readings: the profile form's (`other`) and onboarding's (`prefer-not-to-say`). */
export const GENDER_WEIGHTS = [
  ['male', 46],
  ['female', 46],
  ['non-binary', 5],
  ['other', 1.5],
  ['prefer-not-to-say', 1.5],
];

/** lookingFor in the onboarding reading (about 55 % of members) and the profile-form reading. */
export const LOOKING_FOR_ONBOARDING = [
  ['long-term', 30],
  ['short-term', 15],
  ['friendship', 12],
  ['casual', 15],
  ['not-sure', 28],
];
export const LOOKING_FOR_PROFILE = [
  ['relationship', 40],
  ['casual', 18],
  ['friendship', 14],
  ['not-sure', 28],
];

/** The profile form's 18 interests plus the onboarding suggestions it lacks (Coffee, Wine, Nature). */
export const INTERESTS = [
  'Travel', 'Music', 'Fitness', 'Cooking', 'Art', 'Photography', 'Reading', 'Gaming', 'Sports',
  'Movies', 'Dancing', 'Hiking', 'Technology', 'Fashion', 'Food', 'Pets', 'Yoga', 'Writing',
  'Coffee', 'Wine', 'Nature',
];

/** Interested-in values of the preferences (`INTERESTED_IN_OPTIONS`). */
export const INTERESTED_IN = ['male', 'female', 'non-binary', 'other'];

export const EDUCATION_VALUES = ['high_school', 'some_college', 'associate', 'bachelor', 'master', 'doctorate', 'other'];
/** What members write in the free-text education field: the option labels. */
export const EDUCATION_LABELS = {
  high_school: 'High School',
  some_college: 'Some College',
  associate: 'Associate Degree',
  bachelor: "Bachelor's Degree",
  master: "Master's Degree",
  doctorate: 'Doctorate',
  other: 'Other',
};
export const SMOKING_DRINKING = ['never', 'socially', 'regularly', 'prefer_not_to_say'];
export const EXERCISE = ['never', 'sometimes', 'regularly', 'daily'];
export const PETS = ['none', 'dog', 'cat', 'other', 'multiple'];
export const DEALBREAKERS = ['Smoking', 'Rudeness', 'Drugs', 'Bad manners', 'No sense of humour', 'Long distance'];

/** Match distances people pick (km, 1–200); 50 is the default most keep. */
export const DISTANCE_WEIGHTS = [
  [5, 4], [10, 10], [15, 6], [20, 10], [25, 10], [30, 8], [40, 6], [50, 25], [75, 6], [100, 8], [150, 3], [200, 4],
];

/** Age bands of a dating app: most members are in their twenties and thirties. */
export const AGE_BANDS = [
  [18, 24, 22], [25, 29, 24], [30, 34, 19], [35, 39, 12], [40, 44, 8], [45, 49, 6], [50, 54, 4],
  [55, 59, 2.5], [60, 64, 1.5], [65, 70, 1],
];

const EN_FEMALE = [
  'Emma', 'Olivia', 'Ava', 'Sophia', 'Mia', 'Isabella', 'Charlotte', 'Amelia', 'Harper', 'Evelyn', 'Abigail',
  'Emily', 'Ella', 'Grace', 'Chloe', 'Zoe', 'Lily', 'Hannah', 'Nora', 'Maya', 'Aaliyah', 'Priya', 'Mei',
  'Sofia', 'Camila', 'Layla', 'Leah', 'Sarah', 'Rachel', 'Jessica', 'Jasmine', 'Natalie', 'Victoria', 'Hazel',
  'Aria', 'Ruby', 'Isla', 'Freya', 'Poppy', 'Amara', 'Zara', 'Imani', 'Naomi', 'Yuki', 'Ana', 'Daniela',
  'Fatima', 'Nina', 'Claire', 'Megan', 'Lauren', 'Ashley', 'Brianna', 'Kayla', 'Erin', 'Siobhan', 'Alice', 'Lucy',
];
const EN_MALE = [
  'Liam', 'Noah', 'Oliver', 'Elijah', 'James', 'William', 'Benjamin', 'Lucas', 'Henry', 'Alexander', 'Ethan',
  'Daniel', 'Michael', 'Matthew', 'David', 'Joseph', 'Samuel', 'Jack', 'Ryan', 'Nathan', 'Aaron', 'Marcus',
  'Andre', 'Carlos', 'Diego', 'Mateo', 'Omar', 'Hassan', 'Raj', 'Arjun', 'Kenji', 'Wei', 'Jamal', 'Tyler',
  'Connor', 'Dylan', 'Caleb', 'Owen', 'Leo', 'Theo', 'Harry', 'George', 'Oscar', 'Callum', 'Finn', 'Rhys',
  'Kwame', 'Tomás', 'Luca', 'Adrian',
];
const FR_FEMALE = [
  'Camille', 'Léa', 'Manon', 'Chloé', 'Inès', 'Jade', 'Louise', 'Sarah', 'Juliette', 'Emma', 'Margaux',
  'Élodie', 'Océane', 'Clara', 'Anaïs', 'Mathilde', 'Pauline', 'Lucie', 'Amélie', 'Céline', 'Yasmine', 'Aïcha',
];
const FR_MALE = [
  'Lucas', 'Hugo', 'Louis', 'Gabriel', 'Arthur', 'Jules', 'Théo', 'Raphaël', 'Nathan', 'Mathis', 'Antoine',
  'Julien', 'Maxime', 'Nicolas', 'Thomas', 'Pierre', 'Alexandre', 'Baptiste', 'Clément', 'Romain', 'Karim', 'Mehdi',
];
const DE_FEMALE = [
  'Anna', 'Lena', 'Leonie', 'Hannah', 'Lea', 'Marie', 'Johanna', 'Sophie', 'Katharina', 'Laura', 'Julia',
  'Lisa', 'Sarah', 'Jana', 'Miriam', 'Franziska', 'Greta', 'Ida', 'Clara', 'Paula', 'Elif', 'Zeynep',
];
const DE_MALE = [
  'Lukas', 'Leon', 'Finn', 'Jonas', 'Paul', 'Felix', 'Maximilian', 'Elias', 'Noah', 'Ben', 'Tim', 'Jan',
  'Niklas', 'Moritz', 'Julian', 'Tobias', 'Florian', 'Sebastian', 'Matthias', 'Stefan', 'Emre', 'Can',
];
const NEUTRAL = [
  'Alex', 'Jordan', 'Taylor', 'Riley', 'Casey', 'Morgan', 'Avery', 'Quinn', 'Rowan', 'Sage', 'Jamie',
  'Charlie', 'Skyler', 'Robin', 'Kai', 'River', 'Ash', 'Remy', 'Emery', 'Sasha', 'Noa', 'Eden', 'Kim', 'Parker',
];

const US_LAST = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green',
  'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Kim', 'Patel',
  'Chen', 'Wang', 'Singh', 'Khan', 'Cohen', 'Murphy', "O'Brien", 'Kowalski', 'Okafor', 'Washington',
];
const GB_LAST = [
  'Smith', 'Jones', 'Williams', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Thomas', 'Johnson',
  'Roberts', 'Robinson', 'Thompson', 'Wright', 'Walker', 'White', 'Edwards', 'Hughes', 'Green', 'Hall',
  'Lewis', 'Harris', 'Clarke', 'Patel', 'Jackson', 'Wood', 'Turner', 'Martin', 'Cooper', 'Hill', 'Ward',
  'Morris', 'Moore', 'Clark', 'Lee', 'King', 'Baker', 'Harrison', 'Morgan', 'Ali', 'Khan', 'Begum',
  'Okafor', 'Murphy', 'Mensah', 'Shah', 'Campbell', 'Stewart',
];
const FR_LAST = [
  'Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau',
  'Simon', 'Laurent', 'Lefebvre', 'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier',
  'Morel', 'Girard', 'André', 'Mercier', 'Dupont', 'Lambert', 'Bonnet', 'François', 'Benali', 'Nguyen',
  'Diallo', 'Haddad',
];
const DE_LAST = [
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann',
  'Braun', 'Krüger', 'Hofmann', 'Hartmann', 'Lange', 'Yılmaz', 'Kaya', 'Nowak', 'Weiß', 'Öztürk',
];
const CA_LAST = [...US_LAST.slice(0, 40), 'Tremblay', 'Gagnon', 'Roy', 'Côté', 'Bouchard', 'Gauthier', 'MacDonald', 'Wong'];
const AU_LAST = [...GB_LAST.slice(0, 36), 'Nguyen', 'Tran', 'Kelly', 'Ryan', 'Papadopoulos', 'Rossi', 'Chen', "O'Connor"];

/** Names by the city's region. */
export const NAMES = {
  us: { female: EN_FEMALE, male: EN_MALE, last: US_LAST },
  gb: { female: EN_FEMALE, male: EN_MALE, last: GB_LAST },
  ca: { female: EN_FEMALE, male: EN_MALE, last: CA_LAST },
  au: { female: EN_FEMALE, male: EN_MALE, last: AU_LAST },
  fr: { female: FR_FEMALE, male: FR_MALE, last: FR_LAST },
  de: { female: DE_FEMALE, male: DE_MALE, last: DE_LAST },
  neutral: NEUTRAL,
};

export const OCCUPATIONS = [
  'Software Engineer', 'Nurse', 'Teacher', 'Graphic Designer', 'Marketing Manager', 'Accountant', 'Architect',
  'Chef', 'Physiotherapist', 'Data Analyst', 'Product Manager', 'Lawyer', 'Doctor', 'Photographer', 'Barista',
  'Journalist', 'Pharmacist', 'Electrician', 'Sales Representative', 'Social Worker', 'UX Designer',
  'Financial Advisor', 'Veterinarian', 'Musician', 'Personal Trainer', 'Consultant', 'Project Manager',
  'Dentist', 'Civil Engineer', 'HR Manager', 'Writer', 'Student', 'Researcher', 'Paramedic', 'Pilot',
  'Flight Attendant', 'Real Estate Agent', 'Entrepreneur', 'Carpenter', 'Psychologist', 'Film Editor',
  'Bartender', 'Librarian', 'Web Developer', 'Yoga Instructor', 'Firefighter', 'Police Officer',
  'Interior Designer', 'Event Planner', 'Translator', 'Biologist', 'Mechanic', 'Copywriter', 'Actor',
  'Dancer', 'Retired Teacher', 'Small Business Owner', 'Game Developer', 'Sommelier', 'Urban Planner',
];

/** One sentence per interest, for bios. */
export const INTEREST_LINES = {
  Travel: ['Last trip was Lisbon; the next one is wherever you suggest.', 'I have a list of countries to visit and it keeps getting longer.', 'Happiest with a window seat and a half-planned itinerary.'],
  Music: ['Always hunting for the next great live show.', 'My playlists are better than my jokes, and my jokes are pretty good.', 'I play guitar badly but with enthusiasm.'],
  Fitness: ['You will find me at the gym before work most days.', 'Training for my first half marathon.', 'Weekend bike rides are my therapy.'],
  Cooking: ['I make a mean homemade pasta.', 'Sunday is for slow-cooked dinners with friends.', 'I will cook for you if you do the dishes.'],
  Art: ['Museum dates are my favourite dates.', 'I paint on weekends, mostly watercolours.', 'Gallery openings and cheap wine, count me in.'],
  Photography: ['Rarely without a camera around my neck.', 'I shoot film and develop it myself.', 'Golden hour is my favourite hour.'],
  Reading: ['Currently reading three books at once.', 'Ask me for a book recommendation.', 'My idea of luxury is a rainy day and a good novel.'],
  Gaming: ['Board game nights are a weekly ritual.', 'Still undefeated at Mario Kart, allegedly.', 'Co-op games over competitive ones, always.'],
  Sports: ['Season ticket holder and proud of it.', 'I play five-a-side football on Thursdays.', 'Will watch any sport if there are snacks.'],
  Movies: ['Big fan of old films and late screenings.', 'I can quote most of the classics.', 'Popcorn with butter, no debate.'],
  Dancing: ['Salsa classes on Wednesdays.', 'First on the dance floor, last to leave.', 'I cannot resist a good wedding playlist.'],
  Hiking: ['Weekends are for trails and mountain views.', 'Looking for a hiking buddy who does not mind early starts.', 'Every long walk should end at a pub.'],
  Technology: ['I build side projects for fun.', 'Probably the one fixing everyone’s wifi.', 'Gadget lover, but I still read paper maps.'],
  Fashion: ['Vintage shopping is my cardio.', 'I have opinions about sneakers.', 'Thrifting on Saturdays, styling on Sundays.'],
  Food: ['On a mission to find the best tacos in town.', 'I always know where to eat.', 'Street food over fine dining, most days.'],
  Pets: ['My dog is my best friend and chief wingman.', 'Cat person, but dogs like me anyway.', 'I will definitely ask to meet your pet.'],
  Yoga: ['Morning yoga keeps me sane.', 'Yoga teacher in training.', 'Sunrise yoga, then a big breakfast.'],
  Writing: ['Writing my first novel, slowly.', 'I keep a journal and occasionally a blog.', 'Poetry nights are underrated.'],
  Coffee: ['Coffee first, then adventures.', 'I know every good café in the neighbourhood.', 'Flat white, no sugar, lots of conversation.'],
  Wine: ['Amateur wine nerd.', 'Natural wine bars are my happy place.', 'Let us argue about red versus white.'],
  Nature: ['Happiest outdoors, rain or shine.', 'Camping trips and starry skies.', 'I grow tomatoes on my balcony.'],
};

export const OPENERS = [
  '{occupation} by day, {hobby} enthusiast by night.',
  'Born and raised in {city}, still discovering new corners of it.',
  'Recently moved to {city} and looking for people to explore it with.',
  'Easy-going {occupationLower} who laughs a lot.',
  'Curious, kind and a little bit nerdy.',
  'Part-time adventurer, full-time {occupationLower}.',
  'Optimist with a soft spot for {hobbyLower}.',
  'I love {hobbyLower}, good conversation and long breakfasts.',
  'Friends describe me as loyal, funny and always late.',
  'Just a {occupationLower} trying to find someone to share the good stuff with.',
];

export const LOOKING_FOR_LINES = {
  'long-term': ['Looking for something real and lasting.', 'Ready for a proper partner in crime.'],
  relationship: ['Looking for something real and lasting.', 'Hoping to find my person.'],
  'short-term': ['Keeping things light and fun for now.', 'Open to something short and sweet.'],
  casual: ['Keeping things casual and seeing what happens.', 'Here for good company and no pressure.'],
  friendship: ['Mostly here to meet new friends in the city.', 'New friends welcome, especially ones who like brunch.'],
  'not-sure': ['Not sure what I am looking for yet, happy to see where things go.', 'Let us grab a coffee and figure it out.'],
};

export const CLOSERS = [
  'Tell me your favourite spot in {city}.',
  'Swipe right if you have a good podcast recommendation.',
  'Bonus points if you can make me laugh.',
  'Say hi and tell me about your best trip.',
  'Message me your go-to karaoke song.',
  'Looking forward to hearing from you.',
  'Two truths and a lie? You go first.',
];
