// SPDX-License-Identifier: MIT
// The benchmark workouts by name: CrossFit's "Girls" and common Hero workouts, each in the
// notation (its first line) with its whiteboard (the lines after it): the standard movements
// and the Rx loads, men's/women's. Pure data.
//
// Timing, where the workout itself has none: a For Time gets the cap gyms commonly give it; an
// EMOM whose every minute holds all the movements (Chelsea) has its name as its caption, so the
// minutes do not take the movements in turn; Fight Gone Bad's five one-minute stations are
// intervals of 1:00 work in 3 sets with a minute's rest between.

enum BenchmarkWorkouts {
  static let all: [NamedWorkout] = girls + heroes

  static let girls: [NamedWorkout] = [
    NamedWorkout(
      "Amanda", kind: .girl,
      """
      9-7-5 for time cap 15
      Muscle-ups
      Squat snatches 135/95 lb
      """),
    NamedWorkout(
      "Angie", kind: .girl,
      """
      for time cap 30
      100 pull-ups
      100 push-ups
      100 sit-ups
      100 air squats
      Note: complete each movement before the next
      """),
    NamedWorkout(
      "Annie", kind: .girl,
      """
      50-40-30-20-10 for time cap 15
      Double-unders
      Sit-ups
      """),
    NamedWorkout(
      "Barbara", kind: .girl,
      """
      5 rounds for time
      20 pull-ups
      30 push-ups
      40 sit-ups
      50 air squats
      Rest 3:00 between rounds
      """),
    NamedWorkout(
      "Chelsea", kind: .girl,
      """
      emom 30: Chelsea
      5 pull-ups
      10 push-ups
      15 air squats
      Score: minutes completed
      """),
    NamedWorkout(
      "Cindy", kind: .girl,
      """
      amrap 20
      5 pull-ups
      10 push-ups
      15 air squats
      Score: rounds + reps
      """),
    NamedWorkout(
      "Diane", kind: .girl,
      """
      21-15-9 for time cap 10
      Deadlifts 225/155 lb
      Handstand push-ups
      """),
    NamedWorkout(
      "Elizabeth", kind: .girl,
      """
      21-15-9 for time cap 12
      Cleans 135/95 lb
      Ring dips
      """),
    NamedWorkout(
      "Eva", kind: .girl,
      """
      5 rounds for time cap 60
      800 m run
      30 kettlebell swings 2/1.5 pood (70/53 lb)
      30 pull-ups
      """),
    NamedWorkout(
      "Fran", kind: .girl,
      """
      21-15-9 for time cap 10
      Thrusters 95/65 lb
      Pull-ups
      """),
    NamedWorkout(
      "Grace", kind: .girl,
      """
      for time cap 10
      30 clean and jerks 135/95 lb
      """),
    NamedWorkout(
      "Helen", kind: .girl,
      """
      3 rounds for time cap 20
      400 m run
      21 kettlebell swings 1.5/1 pood (53/35 lb)
      12 pull-ups
      """),
    NamedWorkout(
      "Isabel", kind: .girl,
      """
      for time cap 10
      30 snatches 135/95 lb
      """),
    NamedWorkout(
      "Jackie", kind: .girl,
      """
      for time cap 15
      1000 m row
      50 thrusters 45/35 lb
      30 pull-ups
      """),
    NamedWorkout(
      "Karen", kind: .girl,
      """
      for time cap 15
      150 wall-ball shots 20/14 lb
      """),
    NamedWorkout(
      "Kelly", kind: .girl,
      """
      5 rounds for time cap 45
      400 m run
      30 box jumps 24/20 in
      30 wall-ball shots 20/14 lb
      """),
    NamedWorkout(
      "Linda", kind: .girl,
      """
      10-9-8-7-6-5-4-3-2-1 for time cap 30
      Deadlifts 1.5 x bodyweight
      Bench presses 1 x bodyweight
      Cleans 0.75 x bodyweight
      """),
    NamedWorkout(
      "Mary", kind: .girl,
      """
      amrap 20
      5 handstand push-ups
      10 pistols, alternating legs
      15 pull-ups
      Score: rounds + reps
      """),
    NamedWorkout(
      "Nancy", kind: .girl,
      """
      5 rounds for time cap 25
      400 m run
      15 overhead squats 95/65 lb
      """),
    NamedWorkout(
      "Nicole", kind: .girl,
      """
      amrap 20
      400 m run
      Max pull-ups
      Score: pull-ups in all
      """),
  ]

  static let heroes: [NamedWorkout] = [
    NamedWorkout(
      "DT", kind: .hero,
      """
      5 rounds for time cap 20
      12 deadlifts
      9 hang power cleans
      6 push jerks
      Rx 155/105 lb
      """),
    NamedWorkout(
      "Fight Gone Bad", kind: .hero,
      """
      5 x 1:00/0 x 3 rest 1:00
      Wall-ball shots 20/14 lb
      Sumo deadlift high-pulls 75/55 lb
      Box jumps 20 in
      Push presses 75/55 lb
      Row (calories)
      Score: total reps
      """),
    NamedWorkout(
      "JT", kind: .hero,
      """
      21-15-9 for time cap 20
      Handstand push-ups
      Ring dips
      Push-ups
      """),
    NamedWorkout(
      "Michael", kind: .hero,
      """
      3 rounds for time cap 45
      800 m run
      50 back extensions
      50 sit-ups
      """),
    NamedWorkout(
      "Murph", kind: .hero,
      """
      for time cap 60
      1 mile run
      100 pull-ups
      200 push-ups
      300 air squats
      1 mile run
      Rx 20/14 lb vest
      Note: partition the pull-ups, push-ups and squats as needed
      """),
    NamedWorkout(
      "Nate", kind: .hero,
      """
      amrap 20
      2 muscle-ups
      4 handstand push-ups
      8 kettlebell swings 2/1.5 pood (70/53 lb)
      Score: rounds + reps
      """),
    NamedWorkout(
      "Randy", kind: .hero,
      """
      for time cap 10
      75 power snatches 75/55 lb
      """),
  ]
}
