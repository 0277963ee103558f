"""Oracle corpora for Brokkr's airline tools beyond the shared ones (brokkr.domains.tau2.airline tests).

Runs upstream tau2-bench's own airline environment (get_environment(), Environment.get_response; imported
at run time from a work tree of sierra-research/tau2-bench at the pinned commit, nothing of upstream is
copied here) on call sequences of our own, and writes them in the format of
shared/conformance/tau2/README.md's fuzz corpora, with db_hash after every call:

  quirks          scripted sequences, one per quirk the port must keep: raw baggage counts ("5", 1.5, True,
                  10**20) stored as given, a gift card charged before the Payment for a fractional total is
                  refused, fixed reservation ids and "Too many reservations", seats taken on booking and not
                  released on cancellation, certificates 3221322..3221324 then "Too many certificates", a
                  repeated certificate popped then KeyError after a gift card was charged, a cabin stored
                  unchecked when no flight is new, passengers stored as a str, one-stop searches from
                  a "+1" first leg (the unpadded next day)
  targeted SEED N N random sequences of 8-25 calls, mostly writes, arguments drawn from the DB's own ids with
                  a quarter mutated to wrong types and values

pydantic texts carry the running pydantic's URL version; it is written as 2.10's (the shared corpora's).

usage: TAU2_DATA_DIR=<shared>/upstream/tau2-bench/data PYTHONPATH=stubs:<tau2-bench work tree>/src \\
           python3 tau2_airline_oracle.py quirks ../resources/brokkr/domains/tau2/airline/airline-quirks.jsonl
       ... python3 tau2_airline_oracle.py targeted 1 60 OUT.jsonl   (then gzip -9n)
(recorded 2026-12-01 with CPython 3.11.7, pydantic 2.13.4, upstream a2c024725189473d2d7cea3a5cfdbcc67478e41f.)
"""
import copy
import json
import random
import re
import sys
import warnings

import autostub  # noqa: F401  (import stubs for optional third-party packages)

from tau2.data_model.message import ToolCall
from tau2.domains.airline.environment import get_environment

warnings.simplefilter('ignore')  # pydantic's serializer warnings for the raw values upstream stores
URL = re.compile(r'https://errors\.pydantic\.dev/[0-9]+\.[0-9]+/')
BASE = get_environment()
RAW = BASE.tools.db.model_dump()


def record(seq, kind, calls, seed=None):
    env = copy.deepcopy(BASE)
    rec = {"seq": seq, "seed": seed, "domain": "airline", "kind": kind, "init_task_id": None,
           "initial_db_hash": env.get_db_hash(), "initial_user_db_hash": None, "calls": []}
    for i, c in enumerate(calls):
        name, args = c(env) if callable(c) else c
        m = env.get_response(ToolCall(id=str(i), name=name, arguments=copy.deepcopy(args), requestor="assistant"))
        rec["calls"].append({"requestor": "assistant", "name": name, "arguments": args,
                             "content": URL.sub('https://errors.pydantic.dev/2.10/', m.content), "error": m.error,
                             "db_hash": env.get_db_hash(), "user_db_hash": None})
    rec["final_db_hash"] = env.get_db_hash()
    rec["final_user_db_hash"] = None
    return rec


def available(origin=None, cabin='economy', seats=2):
    for f, fl in RAW['flights'].items():
        if origin and fl['origin'] != origin:
            continue
        for d, v in fl['dates'].items():
            if v['status'] == 'available' and v['available_seats'][cabin] >= seats:
                yield f, d, v['prices'][cabin]


def booking(user, flight, date, price, passengers, pay):
    return ("book_reservation", dict(
        user_id=user, origin=RAW['flights'][flight]['origin'], destination=RAW['flights'][flight]['destination'],
        flight_type="one_way", cabin="economy", flights=[{"flight_number": flight, "date": date}],
        passengers=[{"first_name": "Ann", "last_name": "Lee", "dob": "1990-01-0%d" % (i + 1)} for i in range(passengers)],
        payment_methods=pay, total_baggages=1, nonfree_baggages=0, insurance="no"))


def quirks():
    user, res, res2 = "mei_hernandez_8984", "R9QDGB", "07S7FC"
    credit, gift = "credit_card_6082923", "gift_card_5309492"
    f, d, p = next(available('JFK', seats=9))
    baggages = [("update_reservation_baggages", dict(reservation_id=res, total_baggages="5", nonfree_baggages=1.5, payment_id=credit)),
                ("update_reservation_baggages", dict(reservation_id=res, total_baggages=2, nonfree_baggages=1.51, payment_id=gift)),
                ("update_reservation_baggages", dict(reservation_id=res, total_baggages=2, nonfree_baggages=2.52, payment_id=gift)),
                ("update_reservation_baggages", dict(reservation_id=res, total_baggages=3, nonfree_baggages="2", payment_id=credit)),
                ("update_reservation_baggages", dict(reservation_id=res, total_baggages=[1], nonfree_baggages=True, payment_id=credit)),
                ("get_reservation_details", dict(reservation_id=res)),
                ("update_reservation_baggages", dict(reservation_id=res, total_baggages=1, nonfree_baggages=10 ** 20, payment_id=gift)),
                ("update_reservation_baggages", dict(reservation_id=res, total_baggages=1, nonfree_baggages=10 ** 20, payment_id=credit)),
                ("update_reservation_baggages", dict(reservation_id=res, total_baggages=None, nonfree_baggages=" 7 ", payment_id=credit)),
                ("get_user_details", dict(user_id=user))]
    book = [booking(user, f, d, p, 2, [{"payment_id": credit, "amount": 2 * p}]) for _ in range(4)]
    book += [("cancel_reservation", dict(reservation_id="HATHAT")), ("cancel_reservation", dict(reservation_id="HATHAT")),
             ("get_reservation_details", dict(reservation_id="HATHAT")), ("get_user_details", dict(user_id=user)),
             ("search_direct_flight", dict(origin=RAW['flights'][f]['origin'], destination=RAW['flights'][f]['destination'], date=d)),
             ("get_flight_status", dict(flight_number=f, date=d))]
    f1, d1, p1 = next((x for x in available('JFK', seats=1) if 150 < x[2] < 280))
    certs = [("send_certificate", dict(user_id=user, amount=100)) for _ in range(4)]
    certs += [("send_certificate", dict(user_id="raj_sanchez_7340", amount=" 12.5 ")),
              ("send_certificate", dict(user_id="raj_sanchez_7340", amount=True)),
              ("send_certificate", dict(user_id="raj_sanchez_7340", amount="1e3")),
              booking(user, f1, d1, p1, 1, [{"payment_id": gift, "amount": p1 - 150}, {"payment_id": "certificate_3221322", "amount": 75},
                                            {"payment_id": "certificate_3221322", "amount": 75}]),
              ("get_user_details", dict(user_id=user)),
              ("get_flight_status", dict(flight_number=f1, date=d1))]
    flights = [("update_reservation_flights", dict(reservation_id=res, cabin=5, flights=[], payment_id=credit)),
               ("update_reservation_flights", dict(reservation_id=res, cabin=5, flights=[], payment_id=credit)),
               ("update_reservation_flights", dict(reservation_id=res, cabin="first", flights=[{"flight_number": f, "date": d}], payment_id=credit)),
               ("update_reservation_passengers", dict(reservation_id=res2, passengers="ab")),
               ("update_reservation_flights", dict(reservation_id=res2, cabin="business",
                                                   flights=[{"flight_number": x["flight_number"], "date": x["date"]} for x in RAW['reservations'][res2]['flights']],
                                                   payment_id=credit)),
               ("update_reservation_flights", dict(reservation_id=res2, cabin="economy", flights=[{"flight_number": f, "date": d}], payment_id=gift)),
               ("update_reservation_passengers", dict(reservation_id=res2, passengers={"a": 1, "b": 2})),
               ("get_reservation_details", dict(reservation_id=res2))]
    plus1 = [(fn, fl) for fn, fl in RAW['flights'].items() if '+1' in fl['scheduled_arrival_time_est']]
    onestop = []
    for fn, fl in plus1[:4]:
        onward = next(g['destination'] for g in RAW['flights'].values() if g['origin'] == fl['destination'])
        for day in ("2024-05-01", "2024-05-09", "2024-05-15", "2024-05-19"):
            onestop.append(("search_onestop_flight", dict(origin=fl['origin'], destination=onward, date=day)))
    return [record(0, "quirk_baggages", baggages), record(1, "quirk_booking_ids_seats", book),
            record(2, "quirk_certificates", certs), record(3, "quirk_unchecked_flight_updates", flights),
            record(4, "quirk_onestop_next_day", onestop)]


WEIRD = ['5', ' 3 ', '1_0', '2.0', 'abc', '', 1.5, 2.0, 0.5, 1.01, -1, 0, True, False, None, [], [1], {}, {'v': 1},
         10 ** 30, 1e308, -2.5, '-1', 'inf', 3, 7, 'x' * 60]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, xs):
        return self.r.choice(xs)

    def weird(self):
        return copy.deepcopy(self.pick(WEIRD))

    def maybe(self, good, p=0.25):
        return self.weird() if self.r.random() < p else good

    def res_id(self, db):
        ids = list(db['reservations'])
        if self.r.random() < 0.15:
            return self.pick(['HATHAT', 'HATHAU', self.weird()])
        return self.pick(ids[:60] + [i for i in ids if i.startswith('HAT')])

    def payment_id(self, db, uid):
        u = db['users'].get(uid) if isinstance(uid, str) else None
        if u is None or self.r.random() < 0.1:
            return self.pick(['credit_card_0000', 'certificate_3221322', None, ['x']])
        return self.pick(list(u['payment_methods']))

    def flightinfo(self):
        avail = [(f, d) for f, fl in RAW['flights'].items() for d, v in fl['dates'].items() if v['status'] == 'available']
        other = [(f, d) for f, fl in RAW['flights'].items() for d, v in fl['dates'].items() if v['status'] != 'available']
        f, d = self.pick(avail) if self.r.random() < 0.8 else self.pick(other)
        fi = {'flight_number': f, 'date': d}
        x = self.r.random()
        if x < 0.06:
            fi['flight_number'] = self.weird()
        elif x < 0.1:
            del fi['date']
        elif x < 0.13:
            fi['extra'] = 1
        elif x < 0.16:
            fi = self.weird()
        return fi

    def passenger(self):
        p = {'first_name': self.pick(['Ann', 'Bo']), 'last_name': 'Lee', 'dob': '1990-01-01'}
        x = self.r.random()
        if x < 0.08:
            p['dob'] = self.weird()
        elif x < 0.12:
            del p['first_name']
        elif x < 0.15:
            p = self.weird()
        return p

    def call(self, env):
        db = env.tools.db.model_dump()
        r = self.r
        name = self.pick(['book_reservation'] * 5 + ['update_reservation_baggages'] * 4 + ['update_reservation_flights'] * 5
                         + ['update_reservation_passengers'] * 2 + ['cancel_reservation'] * 2 + ['send_certificate'] * 3
                         + ['search_onestop_flight'] * 2 + ['search_direct_flight', 'get_flight_status',
                                                            'get_reservation_details', 'get_user_details', 'list_all_airports'])
        users = list(RAW['users'])[:40]
        if name == 'book_reservation':
            uid = self.pick(users) if r.random() < 0.9 else self.weird()
            n = r.choice([0, 1, 1, 2, 3])
            flights = [self.flightinfo() for _ in range(r.choice([0, 1, 1, 2, 2, 3]))]
            if r.random() < 0.2 and flights:
                flights.append(copy.deepcopy(flights[0]))
            if r.random() < 0.06:
                flights = self.weird()
            passengers = [self.passenger() for _ in range(n)]
            if r.random() < 0.05:
                passengers = self.weird()
            cabin = self.maybe(self.pick(['economy', 'business', 'basic_economy']), 0.08)
            ins = self.maybe(self.pick(['yes', 'no']), 0.06)
            nonfree = self.maybe(r.choice([0, 1, 2]), 0.2)
            try:  # price it right most of the time, so that bookings go through
                total = sum(RAW['flights'][fi['flight_number']]['dates'][fi['date']]['prices'][cabin] * len(passengers) for fi in flights)
                total += (30 * len(passengers) if ins == 'yes' else 0) + 50 * int(float(nonfree))
            except Exception:
                total = r.randint(0, 2000)
            pids = list(db['users'][uid]['payment_methods']) if isinstance(uid, str) and uid in db['users'] else ['credit_card_1']
            if r.random() < 0.5:
                pms = [{'payment_id': self.pick(pids), 'amount': total}]
            else:
                a = r.randint(0, max(total, 1))
                pms = [{'payment_id': self.pick(pids), 'amount': a}, {'payment_id': self.pick(pids), 'amount': total - a}]
            if r.random() < 0.1:
                pms[0]['amount'] = self.weird()
            if r.random() < 0.05:
                pms = self.weird()
            args = dict(user_id=uid, origin=self.maybe('JFK', 0.05), destination=self.maybe('SFO', 0.05),
                        flight_type=self.maybe(self.pick(['one_way', 'round_trip']), 0.05), cabin=cabin, flights=flights,
                        passengers=passengers, payment_methods=pms, total_baggages=self.maybe(r.choice([0, 1, 3]), 0.15),
                        nonfree_baggages=nonfree, insurance=ins)
        elif name == 'update_reservation_baggages':
            rid = self.res_id(db)
            uid = db['reservations'][rid]['user_id'] if isinstance(rid, str) and rid in db['reservations'] else 'x'
            args = dict(reservation_id=rid, total_baggages=self.maybe(r.choice([0, 1, 2, 5]), 0.4),
                        nonfree_baggages=self.maybe(r.choice([0, 1, 2, 4]), 0.45), payment_id=self.payment_id(db, uid))
        elif name == 'update_reservation_flights':
            rid = self.res_id(db)
            res = db['reservations'].get(rid) if isinstance(rid, str) else None
            uid = res['user_id'] if res else 'x'
            if res and r.random() < 0.6:
                flights = [{'flight_number': x['flight_number'], 'date': x['date']} for x in res['flights']]
                if flights and r.random() < 0.5:
                    flights[r.randrange(len(flights))] = self.flightinfo()
            elif r.random() < 0.7:
                flights = [self.flightinfo() for _ in range(r.choice([0, 1, 2]))]
            else:
                flights = self.weird()
            cabin = res['cabin'] if res and r.random() < 0.5 else self.pick(['economy', 'business', 'basic_economy'])
            args = dict(reservation_id=rid, cabin=self.maybe(cabin, 0.15), flights=flights, payment_id=self.payment_id(db, uid))
        elif name == 'update_reservation_passengers':
            rid = self.res_id(db)
            res = db['reservations'].get(rid) if isinstance(rid, str) else None
            n = len(res['passengers']) if res and hasattr(res['passengers'], '__len__') else 1
            ps = [self.passenger() for _ in range(n)]
            if r.random() < 0.25:
                ps = self.pick(['ab', 'a', {'k': 1}, ['x'] * n, [{'first_name': 'A', 'last_name': 'B', 'dob': 'c'}, 'x'][:max(n, 1)], 5])
            args = dict(reservation_id=rid, passengers=ps)
        elif name == 'cancel_reservation':
            args = dict(reservation_id=self.res_id(db))
        elif name == 'send_certificate':
            args = dict(user_id=self.pick(users[:5]) if r.random() < 0.7 else self.pick(users + [self.weird()]),
                        amount=self.maybe(r.choice([50, 100, 250]), 0.5))
        elif name == 'search_onestop_flight':
            plus1 = [fn for fn, fl in RAW['flights'].items() if '+1' in fl['scheduled_arrival_time_est']]
            fl = RAW['flights'][self.pick(plus1)] if r.random() < 0.6 else RAW['flights'][self.pick(list(RAW['flights']))]
            args = dict(origin=self.maybe(fl['origin'], 0.1),
                        destination=self.maybe(self.pick(['JFK', 'SFO', 'LAX', 'ORD', 'ATL', 'SEA']), 0.1),
                        date=self.maybe(self.pick(['2024-05-01', '2024-05-09', '2024-05-15', '2024-05-16', '2024-05-20', '2024-05-30']), 0.1))
        elif name == 'search_direct_flight':
            args = dict(origin=self.maybe(self.pick(['JFK', 'SFO', 'LAX']), 0.2),
                        destination=self.maybe(self.pick(['JFK', 'SFO', 'LAX', 'ORD']), 0.2), date=self.maybe('2024-05-20', 0.2))
        elif name == 'get_flight_status':
            f = self.pick(list(RAW['flights']))
            args = dict(flight_number=self.maybe(f, 0.2), date=self.maybe(self.pick(list(RAW['flights'][f]['dates'])), 0.2))
        elif name == 'get_reservation_details':
            args = dict(reservation_id=self.res_id(db))
        elif name == 'get_user_details':
            args = dict(user_id=self.pick(users) if r.random() < 0.9 else self.weird())
        else:
            args = {}
        return name, args


def targeted(seed, n):
    out = []
    for seq in range(n):
        g = Gen(seed * 100003 + seq)
        out.append(record(seq, "targeted", [g.call] * g.r.randint(8, 25), seed))
    return out


def main():
    if sys.argv[1] == 'quirks':
        rows, path = quirks(), sys.argv[2]
    else:
        rows, path = targeted(int(sys.argv[2]), int(sys.argv[3])), sys.argv[4]
    with open(path, 'w') as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


if __name__ == '__main__':
    main()
