/**
 * English sentence pools for provider descriptions and taglines, written the way
 * Indonesian agencies with international clients describe themselves.
 */
export const EN_POOLS = {
  intro: [
    '$name is a {digital agency|software house|product studio|technology consultancy|development team} based in $city, {focused on|specialising in|known for} $term.',
    '{Founded|Started} in $city in $since, $name {helps|works with} {SMEs|enterprises|local brands|startups} to {build|launch|scale} $term.',
    '$name {provides|offers|delivers} $term {for businesses in|to clients across|from our office in} $city {and beyond|and the rest of Indonesia|}.',
    'Looking for $term? $name {can help|has a seasoned team|is ready to help}, {working from|based in} $city.',
    'At $name we {believe|are convinced} that {well-built|thoughtful|carefully engineered} $term {drives sales|accelerates growth|makes customers happier}.',
    '$name is {a trusted|an independent|a dedicated} $term {provider|partner} {headquartered in|with a team in} $city, {operating since|active since} $since.',
    '{Since|From} $since, $name has {delivered|shipped|handled} $term {projects|work} for clients {in $city|across Indonesia|at home and abroad}.',
    '{An established|A long-running|A trusted} $term {specialist|shop} from $city: {that is how|this is how} $name {is known|describes itself} {to its clients|since $since}.',
  ],
  services: [
    '{Our services|Our work|Our packages} {include|cover|span} $features.',
    '{We|Our team} {design and build|deliver|take care of} $features {from kickoff to launch|to your requirements|end to end}.',
    'For $term, we {handle|deliver} $features {together|in one package|as one team}.',
    '{From|Everything from} $feature to $feature, {it is all|the work is} {done in-house|handled by our own team}.',
    'Clients {usually|typically|most often} {come to us|reach out} for $term {and|as well as} $feature.',
    '{Our focus|Our core expertise} is $term, {including|especially} $features.',
  ],
  secondary: [
    '{We also|Our team also} {handle|offer|deliver} $term2.',
    '{We also provide|Also available:} $term2 {for clients who need it|as an add-on|to round out the main project}.',
    '{Many|Several} clients {also|additionally} {trust|hand} {us|the same team} with $term2.',
    'Beyond $term, {we run|there is} a {dedicated|separate} team for $term2.',
  ],
  tech: [
    '{We work with|Our toolkit includes|Tools we rely on:} $tags.',
    '{Our specialists|Our people|The team} {are fluent in|work daily with|are certified in} $tags.',
    '{We choose|We pick} $tags {because they are|since they are} {easy to maintain|proven in production|fast to iterate on}.',
    'Projects are {built|developed} {with|using} $tags {and documented properly|and tested before release|}.',
  ],
  clients: [
    '{Our clients|Our customers} {come from|operate in|span} $industries.',
    '{We have|The team has} {experience|a track record} {serving|working with} {companies|businesses} in $industries.',
    '{More than|Over} $clients {clients|brands|companies} {have trusted us with their projects|work with us}, {mostly|many of them} in $industry.',
    'We {understand|know} the needs of $industries {from years of work there|first hand}.',
  ],
  experience: [
    '{Since|Starting in} $since we {have completed|have delivered|have shipped} {more than|around|close to} $projects projects.',
    '{Our team|We} {is made up of|are} $team {people|professionals|engineers and designers} {with varied backgrounds|who have done this before|}.',
    '{With|After} {more than|nearly} $yearsCount years {in the field|of delivery}, we {know|understand} {what makes projects succeed|where projects usually go wrong}.',
    '{Our portfolio|Our track record} {covers|includes} $projects projects {for|with} $clients clients.',
  ],
  process: [
    '{Every|Each} project {starts with|begins with} a {discovery session|requirements workshop|free scoping call} {with the client|lasting $days days|}.',
    'We {work|run projects} {in|using} {Agile|Scrum|two-week sprints} {with regular demos|so clients can follow progress|with weekly reports}.',
    '{Communication|Coordination} {happens|runs} over {WhatsApp|Slack|Google Meet} {with a dedicated project manager|every week|without fuss}.',
    '{You|Clients} {get|receive} a {clear|written} {timeline|schedule} and {quote|estimate} {within $days working days|before work starts}.',
    'An MVP {can|could} {launch|be live} in $weeks weeks, {then grow step by step|and be refined with real users}.',
  ],
  guarantee: [
    '{We offer|Every project comes with|Included:} a $months-month {bug-fix|defect} warranty {after handover|at no extra cost}.',
    '{The source code|All code} {belongs to|is handed over to} the client {on final payment|at the end of the project}.',
    '{Technical support|After-sales support} is {included|available} for $months months {after launch|at no extra charge}.',
    'Payments {can be|are} {split|staged} by {milestone|phase} {to ease cash flow|as work progresses}.',
  ],
  location: [
    '{Our office|Our studio|Our core team} is {in|located in} $city, {but|yet} we {serve|work with} clients {all over Indonesia|remotely|across the region}.',
    '{For|With} clients in $city, we {are happy to|can} {meet in person|visit your office} {for kickoff|whenever needed}.',
  ],
  example: [
    '{A recent|One recent|A typical} project: $feature for {a client|a company|a long-standing client} in $industry {based in $city|in another city|abroad}, {live within|delivered in} $weeks weeks.',
    '{For example|For instance}, we {built|delivered|rolled out} $feature for {a brand|a client|one client} in $industry {that|which} {needed|wanted} {to grow online|faster operations|better reporting}.',
    '{Typical|Common} requests from $industry clients: $features.',
  ],
  values: [
    '{We keep|Our teams stay} {small|focused} {on purpose|so that} {senior people|the people you meet} {do the actual work|stay on your project}.',
    '{Transparency|Honest estimates} {matter|come first}: {no hidden fees|fixed quotes per phase|open progress boards} {from day one|throughout the project}.',
    '{We measure success|Success is measured} {by|in} {your results|conversions|uptime and user satisfaction}, not {hours billed|slide decks}.',
  ],
  closing: [
    '{Contact|Get in touch with} us {for a free consultation|for an initial chat|on WhatsApp} {and get a quote|today|}.',
    "{Let's|Let us} {discuss|talk about} your $term {project|needs} {together|with the $name team}.",
    '{Book|Schedule} a {free|30-minute} {consultation|call} {with our team|now}.',
  ],
  tagline: [
    '{Trusted|Professional|Reliable} $term in $city',
    '$term for {SMEs and enterprises|growing businesses|Indonesian brands}',
    'Your $term {partner|team} {since $since|in $city}',
    '{Measurable|Hassle-free|Results-driven} $term {from $city|for Indonesia}',
    '{Build|Launch} $term {that sells|that lasts|with us}',
  ],
} as const;
