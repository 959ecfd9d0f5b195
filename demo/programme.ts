// The demo programme: service centers with their people, congregations and their study helpers,
// courses and the names students are made of. The seeded server (server/seed) and the web app's
// mock world (src/testing/mocks/world) both build their data from it; the server seeds the first
// three service centers and four congregations, the mock world's busier scenarios all of them.

export const SERVICE_CENTERS = [
  {
    name: 'Accra Bible Correspondence Center',
    location: 'Accra',
    country: 'GH',
    code: 'ACC',
    recruitingPoints: [
      { name: 'Makola Market Stand', location: 'Makola, Accra' },
      { name: 'Kumasi Radio Campaign', location: 'Kumasi' },
    ],
    recruiters: [
      { name: 'Kwame Mensah', contact: 'kwame.mensah@example.org' },
      { name: 'Abena Owusu', contact: '+233 24 555 0142' },
    ],
    contactPersons: ['Esi Boateng', 'Yaw Asante'],
  },
  {
    name: 'Nairobi Study Center',
    location: 'Nairobi',
    country: 'KE',
    code: 'NBO',
    recruitingPoints: [
      { name: 'Kibera Community Hall', location: 'Kibera, Nairobi' },
      { name: 'Mombasa Newspaper Advert', location: 'Mombasa' },
    ],
    recruiters: [
      { name: 'Wanjiru Kamau', contact: 'wanjiru.kamau@example.org' },
      { name: 'Otieno Odhiambo', contact: '+254 712 555 019' },
    ],
    contactPersons: ['Grace Njeri'],
  },
  {
    name: 'Manila Correspondence Office',
    location: 'Quezon City',
    country: 'PH',
    code: 'MNL',
    recruitingPoints: [
      { name: 'Cubao Street Booth', location: 'Cubao, Quezon City' },
      { name: 'Cebu Online Campaign', location: 'Cebu City' },
    ],
    recruiters: [
      { name: 'Maria Santos', contact: 'maria.santos@example.org' },
      { name: 'Jose Reyes', contact: '+63 917 555 0188' },
    ],
    contactPersons: ['Ana Cruz', 'Paolo Garcia'],
  },
  {
    name: 'Lagos Bible School Office',
    location: 'Ikeja, Lagos',
    country: 'NG',
    code: 'LOS',
    recruitingPoints: [{ name: 'Ikeja Bus Park', location: 'Ikeja' }],
    recruiters: [{ name: 'Chidi Okafor', contact: '+234 803 555 0107' }],
    contactPersons: ['Ngozi Eze'],
  },
  {
    name: 'Kampala Study Center',
    location: 'Kampala',
    country: 'UG',
    code: 'KLA',
    recruitingPoints: [{ name: 'Owino Market Table', location: 'Kampala' }],
    recruiters: [{ name: 'Sarah Namubiru', contact: 'sarah.namubiru@example.org' }],
    contactPersons: ['Moses Kato'],
  },
] as const;

export const CONGREGATIONS = [
  { wbs_code: 'TX 40213', display_name: 'Central Church of Christ, Abilene' },
  { wbs_code: 'TN 37211', display_name: 'Hillside Church of Christ, Nashville' },
  { wbs_code: 'OK 73120', display_name: 'Northwest Church of Christ, Oklahoma City' },
  { wbs_code: 'AL 35801', display_name: 'Westside Church of Christ, Huntsville' },
  { wbs_code: 'GA 30303', display_name: 'Downtown Church of Christ, Atlanta' },
  { wbs_code: 'AR 72201', display_name: 'Eastside Church of Christ, Little Rock' },
  { wbs_code: 'KY 40202', display_name: 'Southside Church of Christ, Louisville' },
  { wbs_code: 'MS 39201', display_name: 'Capitol Church of Christ, Jackson' },
] as const;

/** The study helpers of each congregation, by the congregation's place in CONGREGATIONS. */
export const STUDY_HELPERS = [
  ['Linda Carter', 'Robert Hughes', 'Susan Mitchell'],
  ['James Walker', 'Patricia Young'],
  ['Michael Brooks', 'Barbara Price', 'David Foster'],
  ['Karen Bennett', 'Thomas Reed'],
  ['Nancy Coleman', 'Gary Simmons'],
] as const;

export const COURSES = [
  {
    name: 'Introduction to the Bible',
    version: '2',
    lessons: ['What Is the Bible?', 'God the Creator', 'The Promise to Abraham', 'The Law of Moses'],
    pagesPerLesson: 2,
  },
  {
    name: 'The Life of Jesus',
    version: '1',
    lessons: ['His Birth', 'His Teaching', 'His Miracles', 'His Death', 'His Resurrection', 'His Church'],
    pagesPerLesson: 2,
  },
  {
    name: 'Living as a Christian',
    version: '1',
    lessons: ['A New Life', 'Prayer', 'Worship', 'Serving Others'],
    pagesPerLesson: 1,
  },
] as const;

export const FIRST_NAMES = [
  'Kofi', 'Ama', 'Kwabena', 'Akosua', 'Yaw', 'Efua', 'Brian', 'Faith', 'Kevin', 'Mercy', 'Samuel', 'Joy',
  'Mark', 'Rose', 'Daniel', 'Lucy', 'Juan', 'Maricel', 'Ramon', 'Liza', 'Carlo', 'Jasmine', 'Peter', 'Esther',
] as const;

export const LAST_NAMES = [
  'Appiah', 'Owusu', 'Darko', 'Ofori', 'Mwangi', 'Otieno', 'Wanjiku', 'Kiprop', 'Dela Cruz', 'Bautista',
  'Villanueva', 'Ramos', 'Mensah', 'Achieng', 'Santos', 'Mendoza',
] as const;

export const EMPLOYMENTS = ['Farmer', 'Teacher', 'Student', 'Trader', 'Nurse', 'Driver', 'Unemployed', 'Retired'] as const;
